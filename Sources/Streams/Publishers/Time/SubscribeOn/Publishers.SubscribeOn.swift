extension Publisher {
    /// Subscribes, requests and cancels on `scheduler`; values are not moved.
    ///
    /// Use it to start expensive or blocking work off the current thread. The upstream is never
    /// entered twice at once: on a synchronous scheduler, a request made from inside the
    /// upstream's own `request` is made when that call returns (Combine traps).
    ///
    /// ```swift
    /// let cancellable = expensiveScan
    ///     .subscribe(on: DispatchQueue.global())
    ///     .receive(on: DispatchQueue.main)
    ///     .sink { print($0) }
    /// ```
    @inlinable
    public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.SubscribeOn<Self, S> {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that subscribes to, requests from and cancels its upstream on a scheduler.
    ///
    /// ```swift
    /// let background = Publishers.SubscribeOn(upstream: scan, scheduler: DispatchQueue.global(), options: nil)
    /// ```
    public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher subscribed on the scheduler.
        public let upstream: Upstream
        /// Where subscribing, requests and cancellation happen.
        public let scheduler: Context
        /// The options used for each scheduled call.
        public let options: Context.SchedulerOptions?

        /// Makes a publisher that subscribes to `upstream` on `scheduler`.
        ///
        /// ```swift
        /// let background = Publishers.SubscribeOn(upstream: scan, scheduler: DispatchQueue.global(), options: nil)
        /// ```
        @inlinable
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Schedules the subscription to `upstream`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let upstream = self.upstream
            let subscription = SubscribeOnSubscription(downstream: subscriber, scheduler: scheduler, options: options)
            scheduler.schedule(options: options) {
                upstream.receive(subscriber: subscription)
            }
        }
    }
}
