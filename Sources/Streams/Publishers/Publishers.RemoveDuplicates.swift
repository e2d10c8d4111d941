extension Publisher where Output: Equatable {
    /// Drops a value equal to the value received just before it.
    ///
    /// ```swift
    /// let changes = [1, 1, 2, 2, 1].publisher.removeDuplicates()   // 1, 2, 1
    /// ```
    @inlinable
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: ==)
    }
}

extension Publisher {
    /// Drops a value when `predicate(previous, value)` returns `true`, comparing each value with
    /// the value received just before it (dropped or not). The first value always passes.
    ///
    /// ```swift
    /// let names = ["a", "A", "b"].publisher
    ///     .removeDuplicates { $0.lowercased() == $1.lowercased() }   // "a", "b"
    /// ```
    @inlinable
    public func removeDuplicates(
        by predicate: @escaping (Output, Output) -> Bool
    ) -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that drops values that duplicate the value received before them.
    ///
    /// ```swift
    /// let changes = Publishers.RemoveDuplicates(upstream: readings, predicate: ==)
    /// ```
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose duplicates are dropped.
        public let upstream: Upstream

        /// Returns `true` when the second value duplicates the first (the previous one).
        public let predicate: (Output, Output) -> Bool

        /// Makes a publisher that drops `upstream`'s duplicates as `predicate` defines them.
        ///
        /// ```swift
        /// let changes = Publishers.RemoveDuplicates(upstream: readings, predicate: ==)
        /// ```
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber`; each subscription starts with no previous value.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            var previous: Output?
            let isDuplicate = predicate
            upstream.receive(
                subscriber:
                    StageSubscription<Output, Failure, S>(
                        kind: .removeDuplicates, downstream: subscriber, mapFailure: { $0 }, state: { previous as Any },
                        step: { input in
                            defer { previous = input }
                            if let previous, isDuplicate(previous, input) { return .drop }
                            return .emit(input)
                        }))
        }
    }
}
