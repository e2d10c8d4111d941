extension Publisher {
    /// Sends `false` and finishes as soon as a value fails `predicate` (cancelling upstream), or
    /// sends `true` when upstream finishes with every value satisfying it.
    ///
    /// ```swift
    /// let allValid = fields.allSatisfy { !$0.isEmpty }
    /// ```
    @inlinable
    public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that tells whether all of its upstream's values satisfy a predicate.
    ///
    /// ```swift
    /// let allValid = Publishers.AllSatisfy(upstream: fields) { !$0.isEmpty }
    /// ```
    public struct AllSatisfy<Upstream: Publisher>: Publisher {
        /// Whether every value satisfied the predicate.
        public typealias Output = Bool
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are checked.
        public let upstream: Upstream

        /// Returns `true` for a value that passes.
        public let predicate: (Upstream.Output) -> Bool

        /// Makes a publisher that checks every value of `upstream` against `predicate`.
        ///
        /// ```swift
        /// let allValid = Publishers.AllSatisfy(upstream: fields, predicate: { !$0.isEmpty })
        /// ```
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber`; the answer waits for demand.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, S.Failure == Failure {
            let predicate = self.predicate
            var satisfied = true
            upstream.receive(
                subscriber: ReducingSubscription<Upstream.Output, Failure, S>(
                    name: "AllSatisfy", downstream: subscriber, mapFailure: { $0 },
                    step: { input in
                        guard !predicate(input) else { return .more }
                        satisfied = false
                        return .done
                    },
                    result: { satisfied }))
        }
    }
}
