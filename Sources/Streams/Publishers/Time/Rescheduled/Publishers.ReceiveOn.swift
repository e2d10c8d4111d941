extension Publisher {
    /// Delivers values and the completion on `scheduler`.
    ///
    /// The subscription is handed over at once; each value and the completion is scheduled with
    /// `scheduler.schedule(options:_:)`, and the demand the subscriber returns from a value is
    /// requested upstream once it has been delivered, also while the completion is pending, as in
    /// Combine. Requests and cancellation go straight upstream. A cancel drops the values still
    /// waiting, unless the completion is already scheduled: then it changes nothing, and the
    /// waiting values and the completion are delivered.
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
            upstream.receive(
                subscriber: RescheduledSubscription(
                    downstream: subscriber, rescheduler: ReceiveOnRescheduling(scheduler: scheduler, options: options)))
        }
    }
}

/// `receive(on:)`'s scheduling: each event on the scheduler's next turn, with the options.
@usableFromInline
struct ReceiveOnRescheduling<Context: Scheduler>: DescribedRescheduling {
    @usableFromInline
    let scheduler: Context
    @usableFromInline
    let options: Context.SchedulerOptions?

    @inlinable
    init(scheduler: Context, options: Context.SchedulerOptions?) {
        self.scheduler = scheduler
        self.options = options
    }

    @inlinable
    static var subscriptionDescription: String { "ReceiveOn" }

    @inlinable
    func schedule(_ action: @escaping () -> Void) {
        scheduler.schedule(options: options, action)
    }
}
