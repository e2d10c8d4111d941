import Streams

extension Publisher {
    /// Holds back the upstream's values and completion (or failure) until `duration` has
    /// passed since subscription, on `scheduler`: a "minimum request time" that applies to the
    /// whole response.
    ///
    /// A request that answers in 20 ms makes a loading indicator flash, and one that fails in
    /// 20 ms lets a "Try Again" button hammer a dead server; with a minimum duration the answer
    /// is shown no sooner than `duration` after the request started. Every value that arrives
    /// before then is held and, at the deadline, delivered in the order it came, followed by
    /// the completion if that came too; the upstream only sends what the downstream asked for,
    /// so the downstream's demand bounds what is held. From the deadline on, values and the
    /// completion pass at once, on the upstream's thread; held ones are delivered by
    /// `scheduler`. Cancelling is immediate: nothing more is delivered and the downstream is
    /// released.
    ///
    /// ```swift
    /// let answer = request
    ///     .minimumDuration(.milliseconds(500), scheduler: DispatchQueue.main)
    ///     .recover(through: chain, presenter: alert.present)
    /// ```
    public func minimumDuration<S: Scheduler>(
        _ duration: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.MinimumDuration<Self, S> {
        Publishers.MinimumDuration(upstream: self, duration: duration, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher whose values and completion come no sooner than a given time after
    /// subscription.
    ///
    /// ```swift
    /// let held = Publishers.MinimumDuration(upstream: request, duration: .milliseconds(500), scheduler: DispatchQueue.main)
    /// ```
    public struct MinimumDuration<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose answer is held.
        public let upstream: Upstream
        /// How long after subscription a value or the completion may come at the earliest.
        public let duration: Context.SchedulerTimeType.Stride
        /// The clock, and where held values and a held completion are delivered.
        public let scheduler: Context
        /// The options used to schedule the deadline.
        public let options: Context.SchedulerOptions?

        /// Makes the publisher.
        ///
        /// ```swift
        /// let held = Publishers.MinimumDuration(upstream: request, duration: .seconds(1), scheduler: DispatchQueue.main)
        /// ```
        public init(
            upstream: Upstream, duration: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions? = nil
        ) {
            self.upstream = upstream
            self.duration = duration
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber`; the minimum duration starts now.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let deadline = scheduler.now.advanced(by: duration)
            upstream.receive(
                subscriber: MinimumDurationSubscription<Upstream, Context, S>(
                    downstream: subscriber, deadline: deadline, scheduler: scheduler, options: options))
        }
    }
}
