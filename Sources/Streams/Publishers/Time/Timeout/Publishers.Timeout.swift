extension Publisher {
    /// Ends the stream if the upstream stays silent for `interval`: with the error
    /// `customError` makes, or, without one, by finishing normally.
    ///
    /// The wait starts at subscription and starts again at the first request and at every
    /// value. Values and the completion are delivered through the scheduler. An
    /// `ImmediateScheduler` cannot time anything: it stops the program with a message.
    ///
    /// ```swift
    /// let answer = request.timeout(.seconds(10), scheduler: DispatchQueue.main) { URLError(.timedOut) }
    /// ```
    @inlinable
    public func timeout<S: Scheduler>(
        _ interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil,
        customError: (() -> Failure)? = nil
    ) -> Publishers.Timeout<Self, S> {
        Publishers.Timeout(upstream: self, interval: interval, scheduler: scheduler, options: options, customError: customError)
    }
}

extension Publishers {
    /// A publisher that ends the stream when its upstream is silent for too long.
    ///
    /// ```swift
    /// let answer = Publishers.Timeout(upstream: request, interval: .seconds(10), scheduler: DispatchQueue.main, options: nil, customError: nil)
    /// ```
    public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher watched.
        public let upstream: Upstream
        /// How long the upstream may stay silent.
        public let interval: Context.SchedulerTimeType.Stride
        /// Where the wait is timed and events are delivered.
        public let scheduler: Context
        /// The options used for scheduling.
        public let options: Context.SchedulerOptions?
        /// Makes the error sent on timeout; `nil` finishes normally instead.
        public let customError: (() -> Upstream.Failure)?

        /// Makes a publisher that times out `upstream` after `interval` of silence.
        ///
        /// ```swift
        /// let answer = Publishers.Timeout(upstream: request, interval: .seconds(5), scheduler: DispatchQueue.main, options: nil, customError: nil)
        /// ```
        @inlinable
        public init(
            upstream: Upstream,
            interval: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions?,
            customError: (() -> Upstream.Failure)?
        ) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.options = options
            self.customError = customError
        }

        /// Attaches `subscriber`; the wait starts now.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: TimeoutSubscription(downstream: subscriber, timeout: self))
        }
    }
}
