extension Publisher where Output: Equatable {
    /// Sends `true` and finishes as soon as a value equals `output` (cancelling upstream), or
    /// sends `false` when upstream finishes without one.
    ///
    /// ```swift
    /// let hasAdmin = roles.contains("admin")
    /// ```
    @inlinable
    public func contains(_ output: Output) -> Publishers.Contains<Self> {
        Publishers.Contains(upstream: self, output: output)
    }
}

extension Publishers {
    /// A publisher that tells whether its upstream produces a given value.
    ///
    /// ```swift
    /// let hasAdmin = Publishers.Contains(upstream: roles, output: "admin")
    /// ```
    public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
        /// Whether the value was seen.
        public typealias Output = Bool
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are searched.
        public let upstream: Upstream

        /// The value looked for.
        public let output: Upstream.Output

        /// Makes a publisher that looks for `output` among `upstream`'s values.
        ///
        /// ```swift
        /// let hasAdmin = Publishers.Contains(upstream: roles, output: "admin")
        /// ```
        @inlinable
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches `subscriber`; the answer waits for demand.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, S.Failure == Failure {
            let wanted = output
            var found = false
            upstream.receive(
                subscriber: ReducingSubscription<Upstream.Output, Failure, S>(
                    name: "Contains", downstream: subscriber, mapFailure: { $0 },
                    step: { input in
                        guard input == wanted else { return .more }
                        found = true
                        return .done
                    },
                    result: { found }))
        }
    }
}

extension Publishers.Contains: Equatable where Upstream: Equatable {}
