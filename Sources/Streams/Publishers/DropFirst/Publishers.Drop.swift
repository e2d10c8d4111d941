extension Publisher {
    /// Drops the first `count` values, then passes on the rest.
    ///
    /// ```swift
    /// let rest = [1, 2, 3, 4].publisher.dropFirst(2)   // 3, 4
    /// ```
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}

extension Publishers {
    /// A publisher that skips a number of values before passing on the rest.
    ///
    /// ```swift
    /// let rest = Publishers.Drop(upstream: numbers, count: 2)
    /// ```
    public struct Drop<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose first values are dropped.
        public let upstream: Upstream

        /// How many values to drop; zero or more.
        public let count: Int

        /// Makes a publisher that drops `upstream`'s first `count` values.
        ///
        /// ```swift
        /// let rest = Publishers.Drop(upstream: numbers, count: 1)
        /// ```
        @inlinable
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        /// Attaches `subscriber`; each subscription drops its own first values.
        ///
        /// As in Combine, the subscriber receives its subscription before the upstream is
        /// subscribed, and a negative `count` traps once the upstream's subscription arrives.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = DropFirstSubscription(count: count, downstream: subscriber)
            subscriber.receive(subscription: subscription)
            upstream.subscribe(subscription)
        }
    }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}
