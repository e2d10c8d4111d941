extension Publisher {
    /// Sends the last value that satisfies the throwing `predicate`, when upstream finishes; a
    /// thrown error cancels upstream and fails the stream.
    ///
    /// ```swift
    /// let lastValid = rows.tryLast { try $0.validate() }
    /// ```
    @inlinable
    public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
        Publishers.TryLastWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that sends the last of its upstream's values that satisfies a throwing
    /// predicate.
    ///
    /// ```swift
    /// let lastValid = Publishers.TryLastWhere(upstream: rows) { try $0.validate() }
    /// ```
    public struct TryLastWhere<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or a thrown one.
        public typealias Failure = any Error

        /// The publisher whose values are searched.
        public let upstream: Upstream

        /// Returns `true` for the values that qualify; a thrown error ends the stream.
        public let predicate: (Output) throws -> Bool

        /// Makes a publisher of the last of `upstream`'s values that satisfies `predicate`.
        ///
        /// ```swift
        /// let lastValid = Publishers.TryLastWhere(upstream: rows, predicate: { try $0.validate() })
        /// ```
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber`; the value waits for demand.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            var last: Output?
            let predicate = self.predicate
            upstream.receive(
                subscriber: ReducingSubscription<Output, Upstream.Failure, S>(
                    name: "TryLastWhere", downstream: subscriber, mapFailure: { $0 },
                    step: { input in
                        do {
                            if try predicate(input) { last = input }
                            return .more
                        } catch {
                            return .fail(error)
                        }
                    },
                    result: { last }))
        }
    }
}
