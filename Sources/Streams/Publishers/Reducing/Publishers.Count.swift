extension Publisher {
    /// Counts the values and sends the count when upstream finishes.
    ///
    /// ```swift
    /// let howMany = ["a", "b", "c"].publisher.count()   // 3
    /// ```
    @inlinable
    public func count() -> Publishers.Count<Self> {
        Publishers.Count(upstream: self)
    }
}

extension Publishers {
    /// A publisher that sends how many values its upstream produced, once it finishes.
    ///
    /// ```swift
    /// let howMany = Publishers.Count(upstream: events)
    /// ```
    public struct Count<Upstream: Publisher>: Publisher {
        /// The number of values.
        public typealias Output = Int
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are counted.
        public let upstream: Upstream

        /// Wraps `upstream`.
        ///
        /// ```swift
        /// let howMany = Publishers.Count(upstream: events)
        /// ```
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber`; the count waits for demand.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Failure {
            var count = 0
            upstream.receive(
                subscriber: ReducingSubscription<Upstream.Output, Failure, S>(
                    name: "Count", downstream: subscriber, mapFailure: { $0 },
                    step: { _ in
                        count += 1
                        return .more
                    },
                    result: { count }))
        }
    }
}

extension Publishers.Count: Equatable where Upstream: Equatable {}
