extension Publisher {
    /// Delivers values and the completion on `scheduler`.
    ///
    /// The subscription is handed over at once; each value and the completion is scheduled with
    /// `scheduler.schedule(options:_:)`. Requests and cancellation go straight upstream. The
    /// scheduler must be serial (a serial `DispatchQueue`, the main queue, a `TestScheduler`).
    ///
    /// ```swift
    /// let cancellable = request
    ///     .receive(on: DispatchQueue.main)
    ///     .sink { label.text = $0 }
    /// ```
    @inlinable
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.ReceiveOn<Self, S> {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that delivers its upstream's events on a scheduler.
    ///
    /// ```swift
    /// let onMain = Publishers.ReceiveOn(upstream: request, scheduler: DispatchQueue.main, options: nil)
    /// ```
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events move.
        public let upstream: Upstream
        /// Where events are delivered.
        public let scheduler: Context
        /// The options used for each delivery.
        public let options: Context.SchedulerOptions?

        /// Makes a publisher that delivers `upstream`'s events on `scheduler`.
        ///
        /// ```swift
        /// let onMain = Publishers.ReceiveOn(upstream: request, scheduler: DispatchQueue.main, options: nil)
        /// ```
        @inlinable
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber`; its events arrive on the scheduler.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (scheduler, options) = (self.scheduler, self.options)
            upstream.receive(
                subscriber: RescheduledSubscription(name: "ReceiveOn", downstream: subscriber) { work in
                    scheduler.schedule(options: options, work)
                })
        }
    }
}
