extension Publisher {
    /// Sends `true` as soon as a value satisfies the throwing `predicate`, or `false` when
    /// upstream finishes without one; a thrown error cancels upstream and fails the stream.
    ///
    /// ```swift
    /// let anyExpired = tokens.tryContains { try $0.isExpired() }
    /// ```
    @inlinable
    public func tryContains(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryContainsWhere<Self> {
        Publishers.TryContainsWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that tells whether any of its upstream's values satisfies a throwing
    /// predicate.
    ///
    /// ```swift
    /// let anyExpired = Publishers.TryContainsWhere(upstream: tokens) { try $0.isExpired() }
    /// ```
    public struct TryContainsWhere<Upstream: Publisher>: Publisher {
        /// Whether a value satisfied the predicate.
        public typealias Output = Bool
        /// Any error: the upstream's or a thrown one.
        public typealias Failure = any Error

        /// The publisher whose values are searched.
        public let upstream: Upstream

        /// Returns `true` for a value that answers the question; a thrown error ends the stream.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Makes a publisher that looks for a value of `upstream` satisfying `predicate`.
        ///
        /// ```swift
        /// let anyExpired = Publishers.TryContainsWhere(upstream: tokens, predicate: { try $0.isExpired() })
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
            var found = false
            upstream.receive(
                subscriber: ReducingSubscription<Upstream.Output, Upstream.Failure, S>(
                    name: "TryContainsWhere", downstream: subscriber, mapFailure: { $0 },
                    step: { input in
                        do {
                            guard try predicate(input) else { return .more }
                            found = true
                            return .done
                        } catch {
                            return .fail(error)
                        }
                    },
                    result: { found }))
        }
    }
}
