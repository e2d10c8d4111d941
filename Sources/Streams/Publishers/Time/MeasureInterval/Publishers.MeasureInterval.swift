extension Publisher {
    /// Replaces each value with the time since the previous one (the first: since the
    /// subscription), as measured by `scheduler`.
    ///
    /// ```swift
    /// let gaps = keystrokes.measureInterval(using: DispatchQueue.main)
    /// ```
    @inlinable
    public func measureInterval<S: Scheduler>(
        using scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.MeasureInterval<Self, S> {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}

extension Publishers {
    /// A publisher of the intervals between its upstream's values.
    ///
    /// ```swift
    /// let gaps = Publishers.MeasureInterval(upstream: keystrokes, scheduler: DispatchQueue.main)
    /// ```
    public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The time since the previous value.
        public typealias Output = Context.SchedulerTimeType.Stride
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are timed.
        public let upstream: Upstream
        /// The scheduler whose clock measures.
        public let scheduler: Context

        /// Makes a publisher of the intervals between `upstream`'s values.
        ///
        /// ```swift
        /// let gaps = Publishers.MeasureInterval(upstream: keystrokes, scheduler: queue)
        /// ```
        @inlinable
        public init(upstream: Upstream, scheduler: Context) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        /// Attaches `subscriber`; the clock starts when the upstream subscription arrives.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: MeasureIntervalSubscription<Upstream.Output, S, Context>(downstream: subscriber, scheduler: scheduler)
            )
        }
    }
}
