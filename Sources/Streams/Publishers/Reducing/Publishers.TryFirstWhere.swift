extension Publisher {
    /// Sends the first value that satisfies the throwing `predicate`, then cancels upstream and
    /// finishes; a thrown error cancels upstream and fails the stream.
    ///
    /// ```swift
    /// let firstValid = rows.tryFirst { try $0.validate() }
    /// ```
    @inlinable
    public func tryFirst(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryFirstWhere<Self> {
        Publishers.TryFirstWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that sends the first of its upstream's values that satisfies a throwing
    /// predicate.
    ///
    /// ```swift
    /// let firstValid = Publishers.TryFirstWhere(upstream: rows) { try $0.validate() }
    /// ```
    public struct TryFirstWhere<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or a thrown one.
        public typealias Failure = any Error

        /// The publisher whose values are searched.
        public let upstream: Upstream

        /// Returns `true` for the value to send; a thrown error ends the stream.
        public let predicate: (Output) throws -> Bool

        /// Makes a publisher of the first of `upstream`'s values that satisfies `predicate`.
        ///
        /// ```swift
        /// let firstValid = Publishers.TryFirstWhere(upstream: rows, predicate: { try $0.validate() })
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
            var found: Output?
            let predicate = self.predicate
            upstream.receive(
                subscriber:
                    ReducingSubscription<Output, Upstream.Failure, S>(
                        name: "TryFirstWhere", downstream: subscriber, mapFailure: { $0 },
                        step: { input in
                            do {
                                guard try predicate(input) else { return .more }
                                found = input
                                return .done
                            } catch {
                                return .fail(error)
                            }
                        },
                        result: { found }))
        }
    }
}
