extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Passes on the values of the most recent publisher this publisher sent, cancelling the
    /// previous one each time a new one arrives.
    ///
    /// It finishes when this publisher and the current inner publisher have both finished; a
    /// failure of either fails it. The typical use is "only the latest request counts":
    ///
    /// ```swift
    /// let availability = $userName
    ///     .debounce(for: .milliseconds(800), scheduler: DispatchQueue.main)
    ///     .map { name in checkUserNameAvailable(name) }
    ///     .switchToLatest()
    /// ```
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Failure == Never {
    /// `switchToLatest()` for a publisher that cannot fail, of inner publishers that can.
    ///
    /// ```swift
    /// let answers = names.map { check($0) }.switchToLatest()
    /// ```
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
        setFailureType(to: Output.Failure.self).switchToLatest()
    }
}

extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never {
    /// `switchToLatest()` where neither this publisher nor the inner ones can fail.
    ///
    /// ```swift
    /// let latest = pages.map { $0.items.publisher }.switchToLatest()
    /// ```
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// `switchToLatest()` for inner publishers that cannot fail.
    ///
    /// ```swift
    /// let latest = requests.map { Just($0) }.switchToLatest()
    /// ```
    @inlinable
    public func switchToLatest()
        -> Publishers.SwitchToLatest<
            Publishers.SetFailureType<Output, Failure>, Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
        >
    {
        map { $0.setFailureType(to: Failure.self) }.switchToLatest()
    }
}

extension Publishers {
    /// A publisher that passes on the values of the latest publisher its upstream sent.
    ///
    /// ```swift
    /// let latest = Publishers.SwitchToLatest(upstream: requests)
    /// ```
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where Upstream.Output == P, P.Failure == Upstream.Failure {
        /// The inner publishers' values.
        public typealias Output = P.Output
        /// The shared failure.
        public typealias Failure = P.Failure

        /// The publisher of publishers.
        public let upstream: Upstream

        /// Wraps `upstream`.
        ///
        /// ```swift
        /// let latest = Publishers.SwitchToLatest(upstream: requests)
        /// ```
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber`: the subscription first, then the upstream.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = SwitchToLatestSubscription<P, S>(downstream: subscriber)
            subscriber.receive(subscription: subscription)
            upstream.receive(subscriber: subscription)
        }
    }
}
