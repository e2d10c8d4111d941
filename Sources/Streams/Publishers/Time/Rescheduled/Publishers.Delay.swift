extension Publisher {
    /// Delivers every value, and the completion (a failure too), `interval` later on
    /// `scheduler`.
    ///
    /// Requests go straight upstream; the demand the subscriber returns from a value is requested
    /// upstream once it has been delivered, also while the completion is pending, as in Combine.
    /// A cancel drops the values still waiting, unless the completion is already scheduled: then
    /// it changes nothing, and the waiting values and the completion are delivered.
    ///
    /// ```swift
    /// let later = taps.delay(for: .milliseconds(300), scheduler: DispatchQueue.main)
    /// ```
    @inlinable
    public func delay<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride,
        tolerance: S.SchedulerTimeType.Stride? = nil,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Delay<Self, S> {
        Publishers.Delay(
            upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance, scheduler: scheduler,
            options: options)
    }
}

extension Publishers {
    /// A publisher that delivers its upstream's events a fixed interval later.
    ///
    /// ```swift
    /// let later = Publishers.Delay(upstream: taps, interval: .seconds(1), tolerance: .zero, scheduler: DispatchQueue.main)
    /// ```
    public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are delayed.
        public let upstream: Upstream
        /// How long each event waits.
        public let interval: Context.SchedulerTimeType.Stride
        /// How much later than planned an event may arrive.
        public let tolerance: Context.SchedulerTimeType.Stride
        /// Where events are delivered.
        public let scheduler: Context
        /// The options used for each delivery.
        public let options: Context.SchedulerOptions?

        /// Makes a publisher that delivers `upstream`'s events `interval` later.
        ///
        /// ```swift
        /// let later = Publishers.Delay(upstream: taps, interval: .seconds(1), tolerance: .zero, scheduler: DispatchQueue.main)
        /// ```
        @inlinable
        public init(
            upstream: Upstream,
            interval: Context.SchedulerTimeType.Stride,
            tolerance: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions? = nil
        ) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber`; its events arrive `interval` after upstream's.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: RescheduledSubscription(
                    downstream: subscriber,
                    rescheduler: DelayRescheduling(
                        scheduler: scheduler, interval: interval, tolerance: tolerance, options: options)))
        }
    }
}

/// `delay`'s scheduling: each event `interval` after the scheduler's `now`, read each time.
@usableFromInline
struct DelayRescheduling<Context: Scheduler>: Rescheduling {
    @usableFromInline
    let scheduler: Context
    @usableFromInline
    let interval: Context.SchedulerTimeType.Stride
    @usableFromInline
    let tolerance: Context.SchedulerTimeType.Stride
    @usableFromInline
    let options: Context.SchedulerOptions?

    @inlinable
    init(
        scheduler: Context, interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride,
        options: Context.SchedulerOptions?
    ) {
        self.scheduler = scheduler
        self.interval = interval
        self.tolerance = tolerance
        self.options = options
    }

    @inlinable
    func schedule(_ action: @escaping () -> Void) {
        scheduler.schedule(after: scheduler.now.advanced(by: interval), tolerance: tolerance, options: options, action)
    }
}
