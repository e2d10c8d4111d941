extension Publisher {
    /// Sends `false` as soon as a value fails the throwing `predicate`, or `true` when upstream
    /// finishes with every value satisfying it; a thrown error cancels upstream and fails the
    /// stream.
    ///
    /// ```swift
    /// let allSigned = documents.tryAllSatisfy { try $0.verifySignature() }
    /// ```
    @inlinable
    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that tells whether all of its upstream's values satisfy a throwing predicate.
    ///
    /// ```swift
    /// let allSigned = Publishers.TryAllSatisfy(upstream: documents) { try $0.verifySignature() }
    /// ```
    public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
        /// Whether every value satisfied the predicate.
        public typealias Output = Bool
        /// Any error: the upstream's or a thrown one.
        public typealias Failure = any Error

        /// The publisher whose values are checked.
        public let upstream: Upstream

        /// Returns `true` for a value that passes; a thrown error ends the stream.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Makes a publisher that checks every value of `upstream` against `predicate`.
        ///
        /// ```swift
        /// let allSigned = Publishers.TryAllSatisfy(upstream: documents, predicate: { try $0.verifySignature() })
        /// ```
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber`; the answer waits for demand.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, S.Failure == any Error {
            let predicate = self.predicate
            var satisfied = true
            upstream.receive(
                subscriber: ReducingSubscription<Upstream.Output, Upstream.Failure, S>(
                    name: "TryAllSatisfy", downstream: subscriber, mapFailure: { $0 },
                    step: { input in
                        do {
                            guard try !predicate(input) else { return .more }
                            satisfied = false
                            return .done
                        } catch {
                            return .fail(error)
                        }
                    },
                    result: { satisfied }))
        }
    }
}
