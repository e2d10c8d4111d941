import Streams

extension Publisher {
    /// Retries when the user says so: on a failure, subscribes to the publisher `trigger` makes
    /// from the error, and subscribes to the upstream again when that publisher sends a value.
    /// If it completes (or fails) without a value, the original error is delivered.
    ///
    /// This is the "Try again" button of an error screen; for automatic retries with backoff,
    /// use `retry(_:when:backoff:scheduler:)`.
    ///
    /// ```swift
    /// let profile = Deferred { api.fetchProfile() }
    ///     .retry(on: { error in
    ///         errorView.show(error)          // shows a "Try again" button
    ///         return errorView.tryAgainTaps.first()
    ///     })
    /// ```
    @inlinable
    public func retry<Trigger: Publisher>(on trigger: @escaping (Failure) -> Trigger) -> Publishers.RetryOn<Self, Trigger> {
        Publishers.RetryOn(upstream: self, trigger: trigger)
    }
}

extension Publishers {
    /// A publisher that subscribes to its upstream again each time the trigger made from its
    /// failure sends a value.
    ///
    /// ```swift
    /// let retried = Publishers.RetryOn(upstream: request) { _ in tryAgainTaps.first() }
    /// ```
    public struct RetryOn<Upstream: Publisher, Trigger: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure, delivered when the trigger ends without a value.
        public typealias Failure = Upstream.Failure

        /// The publisher subscribed to again.
        public let upstream: Upstream
        /// Makes, from a failure, the publisher whose first value means "try again".
        public let trigger: (Upstream.Failure) -> Trigger

        /// Makes a publisher that retries `upstream` whenever `trigger(error)` sends a value.
        ///
        /// ```swift
        /// let retried = Publishers.RetryOn(upstream: request, trigger: { _ in tryAgainTaps.first() })
        /// ```
        @inlinable
        public init(upstream: Upstream, trigger: @escaping (Upstream.Failure) -> Trigger) {
            self.upstream = upstream
            self.trigger = trigger
        }

        /// Attaches `subscriber`; it sees one subscription however many attempts are made.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            ResubscribingSubscription(upstream: upstream, policy: TriggerRetryPolicy(trigger: trigger), downstream: subscriber)
                .start()
        }
    }
}
