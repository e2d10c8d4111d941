extension Publisher {
    /// Sends a running result computed by a closure that may throw; a thrown error cancels
    /// upstream and fails the stream.
    ///
    /// ```swift
    /// let balances = transactions.tryScan(0) { balance, amount in
    ///     guard balance + amount >= 0 else { throw BankError.overdrawn }
    ///     return balance + amount
    /// }
    /// ```
    @inlinable
    public func tryScan<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryScan<Self, T> {
        Publishers.TryScan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// A publisher that sends a running result computed by a throwing closure.
    ///
    /// ```swift
    /// let balances = Publishers.TryScan(upstream: amounts, initialResult: 0) { try add($0, $1) }
    /// ```
    public struct TryScan<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's or a thrown one.
        public typealias Failure = any Error

        /// The publisher whose values are combined.
        public let upstream: Upstream

        /// The result before the first value.
        public let initialResult: Output

        /// Combines the previous result with the next value; a thrown error ends the stream.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Makes a publisher of the running result over `upstream`'s values.
        ///
        /// ```swift
        /// let balances = Publishers.TryScan(upstream: amounts, initialResult: 0, nextPartialResult: { try add($0, $1) })
        /// ```
        @inlinable
        public init(
            upstream: Upstream,
            initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches `subscriber`; each subscription starts again from `initialResult`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            var result = initialResult
            let next = nextPartialResult
            upstream.receive(
                subscriber:
                    StageSubscription<Upstream.Output, Upstream.Failure, S>(
                        kind: .tryScan, downstream: subscriber, mapFailure: { $0 }, state: { result },
                        step: { input in
                            do {
                                result = try next(result, input)
                                return .emit(result)
                            } catch {
                                return .fail(error)
                            }
                        }))
        }
    }
}
