extension Publisher {
    /// Sends `true` and finishes as soon as a value satisfies `predicate` (cancelling upstream),
    /// or sends `false` when upstream finishes without one.
    ///
    /// ```swift
    /// let anyLarge = sizes.contains { $0 > 1_000_000 }
    /// ```
    @inlinable
    public func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that tells whether any of its upstream's values satisfies a predicate.
    ///
    /// ```swift
    /// let anyLarge = Publishers.ContainsWhere(upstream: sizes) { $0 > 1_000_000 }
    /// ```
    public struct ContainsWhere<Upstream: Publisher>: Publisher {
        /// Whether a value satisfied the predicate.
        public typealias Output = Bool
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are searched.
        public let upstream: Upstream

        /// Returns `true` for a value that answers the question.
        public let predicate: (Upstream.Output) -> Bool

        /// Makes a publisher that looks for a value of `upstream` satisfying `predicate`.
        ///
        /// ```swift
        /// let anyLarge = Publishers.ContainsWhere(upstream: sizes, predicate: { $0 > 1_000_000 })
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
            var found = false
            upstream.receive(
                subscriber: ReducingSubscription<Upstream.Output, Failure, S>(
                    name: "ContainsWhere", downstream: subscriber, mapFailure: { $0 },
                    step: { input in
                        guard predicate(input) else { return .more }
                        found = true
                        return .done
                    },
                    result: { found }))
        }
    }
}
