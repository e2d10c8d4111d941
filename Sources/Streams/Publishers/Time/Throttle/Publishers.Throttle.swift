extension Publisher {
    /// Passes on at most one value per `interval`: the newest (`latest: true`) or the first
    /// (`latest: false`) of those that arrived in the window.
    ///
    /// The first value goes out on the scheduler's next turn; after that, a window ends
    /// `interval` after the previous value went out. A value with no demand for it is dropped.
    /// A completion waits behind a value still waiting, and goes right after it.
    ///
    /// ```swift
    /// let scrolled = scrollOffsets.throttle(for: .milliseconds(100), scheduler: DispatchQueue.main, latest: true)
    /// ```
    @inlinable
    public func throttle<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        latest: Bool
    ) -> Publishers.Throttle<Self, S> {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}

extension Publishers {
    /// A publisher that passes on at most one of its upstream's values per interval.
    ///
    /// ```swift
    /// let throttled = Publishers.Throttle(upstream: offsets, interval: .seconds(1), scheduler: DispatchQueue.main, latest: true)
    /// ```
    public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher being throttled.
        public let upstream: Upstream
        /// The shortest time between two values sent.
        public let interval: Context.SchedulerTimeType.Stride
        /// Where windows are timed and values are delivered.
        public let scheduler: Context
        /// Whether the newest value of a window is sent (`true`) or its first (`false`).
        public let latest: Bool

        /// Makes a publisher that throttles `upstream`.
        ///
        /// ```swift
        /// let throttled = Publishers.Throttle(upstream: offsets, interval: .seconds(1), scheduler: DispatchQueue.main, latest: false)
        /// ```
        @inlinable
        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ThrottleSubscription(downstream: subscriber, throttle: self))
        }
    }
}
