extension Publisher {
    /// Folds every value into an accumulator with a throwing closure and sends the final result
    /// when upstream finishes; a thrown error cancels upstream and fails the stream.
    ///
    /// ```swift
    /// let total = amounts.tryReduce(0) { sum, amount in
    ///     guard amount >= 0 else { throw LedgerError.negative }
    ///     return sum + amount
    /// }
    /// ```
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryReduce<Self, T> {
        Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// A publisher that folds its upstream's values into one result with a throwing closure.
    ///
    /// ```swift
    /// let total = Publishers.TryReduce(upstream: amounts, initial: 0) { try add($0, $1) }
    /// ```
    public struct TryReduce<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's or a thrown one.
        public typealias Failure = any Error

        /// The publisher whose values are folded.
        public let upstream: Upstream

        /// The accumulator's starting value.
        public let initial: Output

        /// Combines the accumulator with the next value; a thrown error ends the stream.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Makes a publisher that folds `upstream`'s values, starting from `initial`.
        ///
        /// ```swift
        /// let total = Publishers.TryReduce(upstream: amounts, initial: 0, nextPartialResult: { try add($0, $1) })
        /// ```
        @inlinable
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches `subscriber`; the result waits for demand.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            var accumulator = initial
            let nextPartialResult = self.nextPartialResult
            upstream.receive(
                subscriber: ReducingSubscription<Upstream.Output, Upstream.Failure, S>(
                    name: "TryReduce", downstream: subscriber, mapFailure: { $0 }, initial: initial,
                    step: { input in
                        do {
                            accumulator = try nextPartialResult(accumulator, input)
                            return .more
                        } catch {
                            return .fail(error)
                        }
                    },
                    result: { accumulator }))
        }
    }
}
