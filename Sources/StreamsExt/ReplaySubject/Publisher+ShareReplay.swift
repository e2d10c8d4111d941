import Streams

extension Publisher {
    /// Shares one subscription to this publisher among all subscribers, replaying the latest
    /// `count` values to each new one: a multicast through a ``ReplaySubject`` that connects
    /// itself, as CombineExt's.
    ///
    /// - The first subscriber connects (subscribes to the upstream).
    /// - A later subscriber first receives the latest `count` values, then what follows.
    /// - When the last subscriber cancels, the upstream is cancelled. The subject, and the values
    ///   it keeps, stay: the next subscriber receives them and then the values of a new upstream
    ///   subscription.
    /// - After the upstream completes, a new subscriber receives the kept values and the
    ///   completion; the upstream is not subscribed to again.
    ///
    /// Each subscriber receives values only as it asks for them (see ``ReplaySubject`` for what
    /// waits meanwhile), so an upstream that sends at once, such as `Just`, reaches every
    /// subscriber. `count` must be zero or more.
    ///
    /// ```swift
    /// let profile = loadProfile().share(replay: 1)
    /// let name = profile.map(\.name).sink { nameLabel.text = $0 }
    /// // Later: receives the profile already loaded, without loading it again.
    /// let avatar = profile.map(\.avatarURL).sink { loadAvatar($0) }
    /// ```
    @inlinable
    public func share(replay count: Int) -> Publishers.Autoconnect<Publishers.Multicast<Self, ReplaySubject<Output, Failure>>> {
        precondition(count >= 0, "share(replay:): the replay count must be zero or more (it was \(count))")
        return multicast { ReplaySubject(bufferSize: count) }.autoconnect()
    }
}
