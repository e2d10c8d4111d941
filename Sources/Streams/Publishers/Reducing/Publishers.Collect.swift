extension Publisher {
    /// Collects every value and sends them as one array when upstream finishes.
    ///
    /// A failure is passed on at once and the collected values are discarded.
    ///
    /// ```swift
    /// let all = [1, 2, 3].publisher.collect()   // [1, 2, 3]
    /// ```
    @inlinable
    public func collect() -> Publishers.Collect<Self> {
        Publishers.Collect(upstream: self)
    }
}

extension Publishers {
    /// A publisher that sends all of its upstream's values as one array when upstream finishes.
    ///
    /// ```swift
    /// let all = Publishers.Collect(upstream: numbers)
    /// ```
    public struct Collect<Upstream: Publisher>: Publisher {
        /// Every upstream value, in order.
        public typealias Output = [Upstream.Output]
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are collected.
        public let upstream: Upstream

        /// Wraps `upstream`.
        ///
        /// ```swift
        /// let all = Publishers.Collect(upstream: numbers)
        /// ```
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber`; the array waits for demand.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            var collected: [Upstream.Output] = []
            upstream.receive(
                subscriber:
                    ReducingSubscription<Upstream.Output, Failure, S>(
                        name: "Collect", downstream: subscriber, mapFailure: { $0 },
                        step: { input in
                            collected.append(input)
                            return .more
                        },
                        result: { collected }))
        }
    }
}

extension Publishers.Collect: Equatable where Upstream: Equatable {}
