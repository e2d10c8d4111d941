extension Publisher {
    /// Wraps every value in `Result.success`, and a failure in one last `Result.failure` value
    /// followed by `.finished`: the stream itself never fails.
    ///
    /// Useful where a failure should be shown rather than end a long-lived pipeline, such as a
    /// form's validation.
    ///
    /// ```swift
    /// let results = checkUserName("alice").asResult()
    /// // .success(true), finished — or — .failure(APIError.…), finished
    /// ```
    @inlinable
    public func asResult() -> Publishers.AsResult<Self> {
        Publishers.AsResult(upstream: self)
    }
}

extension Publishers {
    /// A publisher that turns its upstream's values and failure into `Result` values.
    ///
    /// ```swift
    /// let results = Publishers.AsResult(upstream: request)
    /// ```
    public struct AsResult<Upstream: Publisher>: Publisher {
        /// Each upstream value, or its failure, as a `Result`.
        public typealias Output = Result<Upstream.Output, Upstream.Failure>
        /// The result cannot fail.
        public typealias Failure = Never

        /// The publisher whose events become results.
        public let upstream: Upstream

        /// Wraps `upstream`.
        ///
        /// ```swift
        /// let results = Publishers.AsResult(upstream: request)
        /// ```
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber`; the failure value waits for demand.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.receive(
                subscriber:
                    RecoveringSubscription<Upstream.Output, Upstream.Failure, S>(
                        name: "AsResult", downstream: subscriber, transform: { .success($0) }, recover: { .failure($0) }))
        }
    }
}

extension Publishers.AsResult: Equatable where Upstream: Equatable {}
