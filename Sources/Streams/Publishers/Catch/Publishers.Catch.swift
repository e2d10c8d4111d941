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

        /// The upstream's outcome when it is known and not a failure (the handler is then never
        /// called); nil otherwise, since the failure's outcome depends on the handler, which runs
        /// only on subscription.
        ///
        /// ```swift
        /// Just(1).setFailureType(to: URLError.self).catch { _ in Just(0) }._immediateOutcome()   // .success(1)
        /// ```
        @inlinable
        public func _immediateOutcome() -> Result<Output?, Failure>? {
            guard case .success(let output)? = upstream._immediateOutcome() else { return nil }
            return .success(output)
        }

        /// When the upstream's outcome is known: its events if it succeeds. If it fails, the
        /// handler's call that subscribing would make at once; then the recovery's events if its
        /// outcome is known too, or else the usual subscription, with the recovery already made.
        ///
        /// ```swift
        /// let cancellable = Fail<Int, URLError>(error: URLError(.timedOut))
        ///     .catch { _ in Just(0) }
        ///     .sink { print($0) }   // 0, with no sink or subscription made
        /// ```
        @inlinable
        public func _sinkDirectly(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Output) -> Void
        ) -> AnyCancellable? {
            let outcome: Result<Output?, Failure>
            switch upstream._immediateOutcome() {
            case nil:
                return nil
            case .success(let output)?:
                outcome = .success(output)
            case .failure(let error)?:
                let recovery = handler(error)
                guard let recovered = recovery._immediateOutcome() else {
                    // The recovery is subscribed to as it would be, through the subscription
                    // that `catch` gives its downstream; only the handler is not called again.
                    let sink = Subscribers.Sink<Output, Failure>(
                        receiveCompletion: receiveCompletion, receiveValue: receiveValue)
                    Publishers.Catch<Fail<Output, Upstream.Failure>, NewPublisher>(
                        upstream: Fail(error: error), handler: { _ in recovery }
                    ).receive(subscriber: sink)
                    return AnyCancellable(sink)
                }
                outcome = recovered
            }
            outcome.replay(value: receiveValue, completion: receiveCompletion)
            return AnyCancellable()
        }
    }
}
