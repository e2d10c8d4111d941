extension Publisher {
    /// Passes values on until `publisher` sends its first value, then cancels both and finishes.
    /// `publisher` finishing or failing without a value changes nothing.
    ///
    /// ```swift
    /// let untilLogout = notifications.prefix(untilOutputFrom: logoutTaps)
    /// ```
    @inlinable
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}

extension Publishers {
    /// A publisher that passes its upstream's values on until a second publisher sends a value.
    ///
    /// ```swift
    /// let untilLogout = Publishers.PrefixUntilOutput(upstream: notifications, other: logoutTaps)
    /// ```
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are passed on.
        public let upstream: Upstream
        /// The publisher whose first value ends the stream.
        public let other: Other

        /// Makes a publisher of `upstream`'s values until `other` sends one.
        ///
        /// ```swift
        /// let untilLogout = Publishers.PrefixUntilOutput(upstream: notifications, other: logoutTaps)
        /// ```
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Attaches `subscriber`; `other` is subscribed to first.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            PrefixUntilOutputSubscription<Upstream, Other, S>(downstream: subscriber)
                .start(upstream: upstream, trigger: other)
        }
    }
}
extension Publishers.PrefixUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}
