extension Publisher {
    /// Drops every value and passes on only the completion.
    ///
    /// ```swift
    /// let done = upload.ignoreOutput()   // finishes, or fails, when the upload does
    /// ```
    @inlinable
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}

extension Publishers {
    /// A publisher that ignores its upstream's values and passes on its completion.
    ///
    /// ```swift
    /// let done = Publishers.IgnoreOutput(upstream: upload)
    /// ```
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        /// No values are ever sent.
        public typealias Output = Never
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are dropped.
        public let upstream: Upstream

        /// Wraps `upstream`.
        ///
        /// ```swift
        /// let done = Publishers.IgnoreOutput(upstream: upload)
        /// ```
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber`, which sees only the completion.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Never, S.Failure == Failure {
            upstream.receive(
                subscriber: ReducingSubscription<Upstream.Output, Failure, S>(
                    name: "IgnoreOutput", downstream: subscriber, mapFailure: { $0 },
                    step: { _ in .more },
                    result: { nil }))
        }
    }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}
