extension Publisher {
    /// Collects values into arrays of `count` and sends each array as it fills; when upstream
    /// finishes, sends what is left (a shorter array) before finishing.
    ///
    /// A failure is passed on at once and the values collected so far are discarded. Each array
    /// the downstream asks for is asked of upstream as `count` values. `count` must be at least 1.
    ///
    /// ```swift
    /// let pages = [1, 2, 3, 4, 5].publisher.collect(2)   // [1, 2], [3, 4], [5]
    /// ```
    @inlinable
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }
}

extension Publishers {
    /// A publisher that sends its upstream's values in arrays of a given size.
    ///
    /// ```swift
    /// let pages = Publishers.CollectByCount(upstream: rows, count: 50)
    /// ```
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        /// Up to `count` upstream values, in order.
        public typealias Output = [Upstream.Output]
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are collected.
        public let upstream: Upstream

        /// The size of each array (the last may be shorter).
        public let count: Int

        /// Makes a publisher of `upstream`'s values in arrays of `count`. `count` must be at
        /// least 1.
        ///
        /// ```swift
        /// let pages = Publishers.CollectByCount(upstream: rows, count: 50)
        /// ```
        @inlinable
        public init(upstream: Upstream, count: Int) {
            precondition(count > 0, "collect(_:) requires a count of at least 1")
            self.upstream = upstream
            self.count = count
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: CollectByCountSubscription(downstream: subscriber, count: count))
        }
    }
}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}
