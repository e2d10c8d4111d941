import Streams

extension Publishers {
    /// A publisher that resubscribes to its upstream each time a trigger, made from the
    /// upstream's failures, sends a value. See `retryWhen(_:)`.
    ///
    /// ```swift
    /// let reload = Publishers.TriggeredRetry(upstream: request) { failures in failures.prefix(3) }
    /// ```
    ///
    /// CombineExt names this type `Publishers.RetryWhen<Upstream, Trigger, Output, Failure>`;
    /// in Streams that name belongs to the publisher of `retry(_:when:backoff:scheduler:)`.
    public struct TriggeredRetry<Upstream: Publisher, Trigger: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher subscribed to again on each trigger value.
        public let upstream: Upstream
        /// Makes the trigger from the publisher of the upstream's failures; called once per
        /// subscription.
        public let notificationHandler: (AnyPublisher<Failure, Never>) -> Trigger

        /// Makes a publisher that retries `upstream` when the trigger made by
        /// `notificationHandler` says so.
        ///
        /// ```swift
        /// let reload = Publishers.TriggeredRetry(upstream: request) { failures in failures.map { _ in () } }
        /// ```
        @inlinable
        public init(upstream: Upstream, notificationHandler: @escaping (AnyPublisher<Failure, Never>) -> Trigger) {
            self.upstream = upstream
            self.notificationHandler = notificationHandler
        }

        /// Hands `subscriber` its subscription, subscribes to the trigger, then to the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = RetryWhenSubscription<Upstream, Trigger, S>(upstream: upstream, downstream: subscriber)
            subscriber.receive(subscription: subscription)
            subscription.start(notificationHandler)
        }
    }
}
