extension Publisher {
    /// Sends the first value, then cancels upstream and finishes; an empty upstream just
    /// finishes.
    ///
    /// ```swift
    /// let first = [3, 4, 5].publisher.first()   // 3
    /// ```
    @inlinable
    public func first() -> Publishers.First<Self> {
        Publishers.First(upstream: self)
    }
}

extension Publishers {
    /// A publisher that sends only its upstream's first value.
    ///
    /// ```swift
    /// let first = Publishers.First(upstream: numbers)
    /// ```
    public struct First<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose first value is sent.
        public let upstream: Upstream

        /// Wraps `upstream`.
        ///
        /// ```swift
        /// let first = Publishers.First(upstream: numbers)
        /// ```
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber`; the value waits for demand.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            var first: Output?
            upstream.receive(
                subscriber:
                    ReducingSubscription<Output, Failure, S>(
                        name: "First", downstream: subscriber, mapFailure: { $0 },
                        step: { input in
                            first = input
                            return .done
                        },
                        result: { first }))
        }
    }
}

extension Publishers.First: Equatable where Upstream: Equatable {}
