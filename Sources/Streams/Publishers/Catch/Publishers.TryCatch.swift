extension Publisher {
    /// Replaces a failed upstream with the publisher `handler` makes from the error; if the
    /// handler throws, the stream fails with the thrown error.
    ///
    /// ```swift
    /// let data = primary.tryCatch { error -> AnyPublisher<Data, URLError> in
    ///     guard (error as? URLError)?.code == .timedOut else { throw error }
    ///     return mirror.eraseToAnyPublisher()
    /// }
    /// ```
    @inlinable
    public func tryCatch<P: Publisher>(
        _ handler: @escaping (Failure) throws -> P
    ) -> Publishers.TryCatch<Self, P> where P.Output == Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }
}

extension Publishers {
    /// A publisher that replaces a failed upstream with another publisher, or fails with the
    /// error its handler throws.
    ///
    /// ```swift
    /// let safe = Publishers.TryCatch(upstream: request) { try fallback(for: $0) }
    /// ```
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The values of both publishers.
        public typealias Output = Upstream.Output
        /// Any error: the replacement's or a thrown one.
        public typealias Failure = any Error

        /// The publisher that may fail.
        public let upstream: Upstream

        /// Makes the replacement from the error, or throws.
        public let handler: (Upstream.Failure) throws -> NewPublisher

        /// Makes a publisher that replaces `upstream`, if it fails, with `handler(error)`.
        ///
        /// ```swift
        /// let safe = Publishers.TryCatch(upstream: request, handler: { try fallback(for: $0) })
        /// ```
        @inlinable
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Attaches `subscriber` to the upstream, and to the replacement if it comes to that.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let handler = self.handler
            upstream.receive(
                subscriber: CatchSubscription<Upstream, NewPublisher, S>(
                    name: "TryCatch", downstream: subscriber, mapRecoveryFailure: { $0 },
                    recover: { error in Result { try handler(error) } }))
        }
    }
}
