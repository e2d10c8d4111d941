extension Publisher {
    /// Replaces a failed upstream with the publisher `handler` makes from the error.
    ///
    /// The downstream keeps its one subscription: its outstanding demand carries over to the new
    /// publisher. Values already delivered stay delivered.
    ///
    /// ```swift
    /// let names = fetchNames()
    ///     .catch { _ in Just(["(offline)"]) }
    /// ```
    @inlinable
    public func `catch`<P: Publisher>(
        _ handler: @escaping (Failure) -> P
    ) -> Publishers.Catch<Self, P> where P.Output == Output {
        Publishers.Catch(upstream: self, handler: handler)
    }
}

extension Publishers {
    /// A publisher that replaces a failed upstream with another publisher.
    ///
    /// ```swift
    /// let safe = Publishers.Catch(upstream: request) { _ in Just(fallback) }
    /// ```
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The values of both publishers.
        public typealias Output = Upstream.Output
        /// The replacement's failure.
        public typealias Failure = NewPublisher.Failure

        /// The publisher that may fail.
        public let upstream: Upstream

        /// Makes the replacement from the error.
        public let handler: (Upstream.Failure) -> NewPublisher

        /// Makes a publisher that replaces `upstream`, if it fails, with `handler(error)`.
        ///
        /// ```swift
        /// let safe = Publishers.Catch(upstream: request, handler: { _ in Just(fallback) })
        /// ```
        @inlinable
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Attaches `subscriber` to the upstream, and to the replacement if it comes to that.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let handler = self.handler
            upstream.receive(
                subscriber: CatchSubscription<Upstream, NewPublisher, S>(
                    name: "Catch", downstream: subscriber, mapRecoveryFailure: { $0 },
                    recover: { .success(handler($0)) }))
        }
    }
}
