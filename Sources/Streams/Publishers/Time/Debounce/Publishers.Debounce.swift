extension Publisher {
    /// Passes on a value only after `dueTime` has passed without another value: the last of
    /// each burst.
    ///
    /// Each value restarts the wait. When the wait ends, the value is sent if the subscriber has
    /// demand for it, and dropped otherwise. As in Combine, a value still waiting when the
    /// upstream finishes or fails is discarded, and the completion is delivered through the
    /// scheduler; pass `deliversPendingValueOnFinish: true` to send that value before `.finished`
    /// instead.
    ///
    /// ```swift
    /// let settledNames = $userName
    ///     .debounce(for: .milliseconds(800), scheduler: DispatchQueue.main)
    /// ```
    @inlinable
    public func debounce<S: Scheduler>(
        for dueTime: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil,
        deliversPendingValueOnFinish: Bool = false
    ) -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(
            upstream: self, dueTime: dueTime, scheduler: scheduler, options: options,
            deliversPendingValueOnFinish: deliversPendingValueOnFinish)
    }
}

extension Publishers {
    /// A publisher that passes on a value only once its upstream has been quiet for a while.
    ///
    /// ```swift
    /// let settled = Publishers.Debounce(upstream: keystrokes, dueTime: .milliseconds(800), scheduler: DispatchQueue.main, options: nil)
    /// ```
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose bursts are debounced.
        public let upstream: Upstream
        /// How long the upstream must be quiet before a value is sent.
        public let dueTime: Context.SchedulerTimeType.Stride
        /// Where the wait is timed and values are delivered.
        public let scheduler: Context
        /// The options used for scheduling.
        public let options: Context.SchedulerOptions?
        /// Whether a value still waiting when the upstream finishes is sent before `.finished`
        /// (Combine discards it).
        public let deliversPendingValueOnFinish: Bool

        /// Makes a publisher that debounces `upstream`. `dueTime` must not be negative.
        ///
        /// ```swift
        /// let settled = Publishers.Debounce(upstream: keystrokes, dueTime: .seconds(1), scheduler: DispatchQueue.main, options: nil)
        /// ```
        @inlinable
        public init(
            upstream: Upstream,
            dueTime: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions?,
            deliversPendingValueOnFinish: Bool = false
        ) {
            precondition(dueTime >= .zero, "debounce(for:) requires a dueTime of zero or more, got \(dueTime)")
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
            self.deliversPendingValueOnFinish = deliversPendingValueOnFinish
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: DebounceSubscription(downstream: subscriber, debounce: self))
        }
    }
}
