extension Publisher {
    /// Sends a running result: `nextPartialResult` combines the previous result (at first
    /// `initialResult`) with each value.
    ///
    /// ```swift
    /// let totals = [1, 2, 3].publisher.scan(0, +)   // 1, 3, 6
    /// ```
    @inlinable
    public func scan<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Publishers.Scan<Self, T> {
        Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// A publisher that sends the running result of combining its upstream's values.
    ///
    /// ```swift
    /// let totals = Publishers.Scan(upstream: amounts, initialResult: 0, nextPartialResult: +)
    /// ```
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are combined.
        public let upstream: Upstream

        /// The result before the first value.
        public let initialResult: Output

        /// Combines the previous result with the next value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Makes a publisher of the running result over `upstream`'s values.
        ///
        /// ```swift
        /// let totals = Publishers.Scan(upstream: amounts, initialResult: 0, nextPartialResult: +)
        /// ```
        @inlinable
        public init(
            upstream: Upstream,
            initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches `subscriber`; each subscription starts again from `initialResult`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            var result = initialResult
            let next = nextPartialResult
            upstream.receive(subscriber: 
                StageSubscription<Upstream.Output, Upstream.Failure, S>(
                    name: "Scan", downstream: subscriber, mapFailure: { $0 },
                    step: { input in
                        result = next(result, input)
                        return .emit(result)
                    }))
        }
    }
}
