extension Publisher {
    /// Folds every value into an accumulator and sends the final result when upstream finishes.
    ///
    /// A failure is passed on at once and the partial result is discarded.
    ///
    /// ```swift
    /// let total = [1, 2, 3].publisher.reduce(0, +)   // 6
    /// ```
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T) -> Publishers.Reduce<Self, T> {
        Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// A publisher that folds its upstream's values into one result.
    ///
    /// ```swift
    /// let total = Publishers.Reduce(upstream: amounts, initial: 0, nextPartialResult: +)
    /// ```
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are folded.
        public let upstream: Upstream

        /// The accumulator's starting value.
        public let initial: Output

        /// Combines the accumulator with the next value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Makes a publisher that folds `upstream`'s values, starting from `initial`.
        ///
        /// ```swift
        /// let total = Publishers.Reduce(upstream: amounts, initial: 0, nextPartialResult: +)
        /// ```
        @inlinable
        public init(upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches `subscriber`; the result waits for demand.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            var accumulator = initial
            let nextPartialResult = self.nextPartialResult
            upstream.receive(
                subscriber: ReducingSubscription<Upstream.Output, Failure, S>(
                    name: "Reduce", downstream: subscriber, mapFailure: { $0 }, initial: initial,
                    step: { input in
                        accumulator = nextPartialResult(accumulator, input)
                        return .more
                    },
                    result: { accumulator }))
        }
    }
}
