extension Publisher {
    /// Drops values until `publisher` sends its first value, then passes every value on. If
    /// `publisher` completes before sending a value, the stream ends with that completion.
    ///
    /// ```swift
    /// let afterLogin = messages.drop(untilOutputFrom: loggedIn)
    /// ```
    @inlinable
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where P.Failure == Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }
}

extension Publishers {
    /// A publisher that drops its upstream's values until a second publisher sends a value.
    ///
    /// ```swift
    /// let afterLogin = Publishers.DropUntilOutput(upstream: messages, other: loggedIn)
    /// ```
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The failure of both publishers.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are passed on once `other` has sent a value.
        public let upstream: Upstream
        /// The publisher whose first value opens the stream.
        public let other: Other

        /// Makes a publisher of `upstream`'s values from the moment `other` sends one.
        ///
        /// ```swift
        /// let afterLogin = Publishers.DropUntilOutput(upstream: messages, other: loggedIn)
        /// ```
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Hands `subscriber` its subscription, then subscribes to `other`, then to the upstream.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            DropUntilOutputSubscription<Upstream, Other, S>(downstream: subscriber)
                .start(upstream: upstream, trigger: other, downstream: subscriber)
        }
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}
