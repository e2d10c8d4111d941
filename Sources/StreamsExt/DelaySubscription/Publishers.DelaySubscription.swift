import Streams

extension Publishers {
    /// A publisher that subscribes to its upstream only after a delay. See
    /// `delaySubscription(for:tolerance:scheduler:options:)`.
    ///
    /// ```swift
    /// let later = Publishers.DelaySubscription(
    ///     upstream: connect(), interval: .seconds(2), tolerance: .zero, scheduler: DispatchQueue.main, options: nil)
    /// ```
    public struct DelaySubscription<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher subscribed after the delay.
        public let upstream: Upstream
        /// How long to wait before subscribing.
        public let interval: Context.SchedulerTimeType.Stride
        /// How late the subscription may be.
        public let tolerance: Context.SchedulerTimeType.Stride
        /// The scheduler that waits and subscribes.
        public let scheduler: Context
        /// Options for the scheduled action.
        public let options: Context.SchedulerOptions?

        /// Makes a publisher that subscribes to `upstream` `interval` after being subscribed to.
        ///
        /// ```swift
        /// let later = Publishers.DelaySubscription(
        ///     upstream: connect(), interval: .seconds(2), tolerance: .zero, scheduler: DispatchQueue.main, options: nil)
        /// ```
        @inlinable
        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride,
            scheduler: Context, options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        /// Hands `subscriber` its subscription, then schedules the subscription to `upstream`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = DelaySubscriptionSubscription(downstream: subscriber, upstream: upstream)
            subscriber.receive(subscription: subscription)
            // The only kind of scheduled action a Scheduler can cancel is a repeating one: it is
            // cancelled the first time it runs (its period, at least a second, never comes).
            let period = Swift.max(interval, .seconds(1))
            let timer = scheduler.schedule(
                after: scheduler.now.advanced(by: interval), interval: period, tolerance: tolerance, options: options
            ) {
                subscription.fire()
            }
            subscription.armed(timer)
        }
    }
}
