import Streams

extension Publishers {
    /// A publisher that resubscribes to its upstream each time a trigger, made from the
    /// upstream's failures, sends a value. See `retryWhen(_:)`.
    ///
    /// The generic parameters are CombineExt's, so code that spells the type keeps compiling:
    /// `Output` and `Failure` are always the upstream's.
    ///
    /// ```swift
    /// let reload = Publishers.RetryWhen(upstream: request) { failures in failures.prefix(3) }
    /// ```
    public struct RetryWhen<Upstream: Publisher, RetryTrigger: Publisher, Output, Failure>: Publisher
    where Upstream.Output == Output, Upstream.Failure == Failure {
        /// The publisher subscribed to again on each trigger value.
        public let upstream: Upstream
        /// Makes the trigger from the publisher of the upstream's failures; called once per
        /// subscription.
        public let notificationHandler: (AnyPublisher<Failure, Never>) -> RetryTrigger

        /// Makes a publisher that retries `upstream` when the trigger made by
        /// `notificationHandler` says so.
        ///
        /// ```swift
        /// let reload = Publishers.RetryWhen(upstream: request) { failures in failures.map { _ in () } }
        /// ```
        @inlinable
        public init(upstream: Upstream, notificationHandler: @escaping (AnyPublisher<Failure, Never>) -> RetryTrigger) {
            self.upstream = upstream
            self.notificationHandler = notificationHandler
        }

        /// Hands `subscriber` its subscription, subscribes to the trigger, then to the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = RetryWhenSubscription<Upstream, RetryTrigger, S>(upstream: upstream, downstream: subscriber)
            subscriber.receive(subscription: subscription)
            subscription.start(notificationHandler)
        }
    }
}
