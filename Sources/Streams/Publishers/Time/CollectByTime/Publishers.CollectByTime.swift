extension Publisher {
    /// Collects values and sends them as arrays on a schedule: at the end of every interval (if
    /// anything was collected), and with `.byTimeOrCount` also as soon as a group is full.
    ///
    /// When upstream finishes, what is left goes as a last array before `.finished`; a failure is
    /// passed on at once and what was collected is discarded. Arrays are sent on the scheduler
    /// and wait there for downstream demand. As in Combine, upstream is asked for one value at a
    /// time: one when subscribed (what the subscriber requests as it subscribes only adds to its
    /// demand), then one more for each value and for each later downstream request.
    ///
    /// ```swift
    /// let batches = clicks.collect(.byTimeOrCount(DispatchQueue.main, .seconds(1), 50))
    /// ```
    @inlinable
    public func collect<S: Scheduler>(
        _ strategy: Publishers.TimeGroupingStrategy<S>,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.CollectByTime<Self, S> {
        Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
    }
}

extension Publishers {
    /// A publisher that sends its upstream's values in arrays on a schedule.
    ///
    /// ```swift
    /// let batches = Publishers.CollectByTime(upstream: clicks, strategy: .byTime(queue, .seconds(1)), options: nil)
    /// ```
    public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The values collected in one group.
        public typealias Output = [Upstream.Output]
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are collected.
        public let upstream: Upstream
        /// When groups are sent.
        public let strategy: TimeGroupingStrategy<Context>
        /// Options for the scheduler.
        public let options: Context.SchedulerOptions?

        /// Makes a publisher of `upstream`'s values grouped by `strategy`. The interval must not
        /// be negative and a count must be at least 1.
        ///
        /// ```swift
        /// let batches = Publishers.CollectByTime(upstream: clicks, strategy: .byTime(queue, .seconds(1)), options: nil)
        /// ```
        @inlinable
        public init(upstream: Upstream, strategy: TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?) {
            switch strategy {
            case .byTime(_, let interval):
                precondition(interval >= .zero, "collect(.byTime) requires an interval of zero or more, got \(interval)")
            case .byTimeOrCount(_, let interval, let count):
                precondition(interval >= .zero, "collect(.byTimeOrCount) requires an interval of zero or more, got \(interval)")
                precondition(count > 0, "collect(.byTimeOrCount) requires a count of at least 1")
            }
            self.upstream = upstream
            self.strategy = strategy
            self.options = options
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: CollectByTimeSubscription(downstream: subscriber, collect: self))
        }
    }
}
