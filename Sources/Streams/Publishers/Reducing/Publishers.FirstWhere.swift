extension Publisher {
    /// Sends the first value that satisfies `predicate`, then cancels upstream and finishes.
    ///
    /// ```swift
    /// let firstEven = [1, 3, 4, 6].publisher.first { $0.isMultiple(of: 2) }   // 4
    /// ```
    @inlinable
    public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that sends the first of its upstream's values that satisfies a predicate.
    ///
    /// ```swift
    /// let admin = Publishers.FirstWhere(upstream: users) { $0.isAdmin }
    /// ```
    public struct FirstWhere<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are searched.
        public let upstream: Upstream

        /// Returns `true` for the value to send.
        public let predicate: (Output) -> Bool

        /// Makes a publisher of the first of `upstream`'s values that satisfies `predicate`.
        ///
        /// ```swift
        /// let admin = Publishers.FirstWhere(upstream: users, predicate: { $0.isAdmin })
        /// ```
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber`; the value waits for demand.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            var found: Output?
            let predicate = self.predicate
            upstream.receive(
                subscriber:
                    ReducingSubscription<Output, Failure, S>(
                        name: "TryFirst", downstream: subscriber, mapFailure: { $0 },
                        step: { input in
                            guard predicate(input) else { return .more }
                            found = input
                            return .done
                        },
                        result: { found }))
        }
    }
}
