extension Publisher {
    /// Sends the last value that satisfies `predicate`, when upstream finishes; nothing if none
    /// did.
    ///
    /// ```swift
    /// let lastEven = [1, 2, 3, 4, 5].publisher.last { $0 % 2 == 0 }   // 4
    /// ```
    @inlinable
    public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that sends the last of its upstream's values that satisfies a predicate.
    ///
    /// ```swift
    /// let lastEven = Publishers.LastWhere(upstream: numbers) { $0 % 2 == 0 }
    /// ```
    public struct LastWhere<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are searched.
        public let upstream: Upstream

        /// Returns `true` for the values that qualify.
        public let predicate: (Output) -> Bool

        /// Makes a publisher of the last of `upstream`'s values that satisfies `predicate`.
        ///
        /// ```swift
        /// let lastEven = Publishers.LastWhere(upstream: numbers, predicate: { $0 % 2 == 0 })
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
            var last: Output?
            let predicate = self.predicate
            upstream.receive(
                subscriber: ReducingSubscription<Output, Failure, S>(
                    name: "LastWhere", downstream: subscriber, mapFailure: { $0 },
                    step: { input in
                        if predicate(input) { last = input }
                        return .more
                    },
                    result: { last }))
        }
    }
}
