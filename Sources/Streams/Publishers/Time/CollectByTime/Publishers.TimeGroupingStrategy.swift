extension Publishers {
    /// How `collect(_:options:)` groups values: every interval, or every interval and whenever
    /// a group is full.
    ///
    /// ```swift
    /// let batches = events.collect(.byTimeOrCount(queue, .seconds(1), 100))
    /// ```
    public enum TimeGroupingStrategy<Context: Scheduler> {
        /// Sends what was collected at the end of every interval.
        case byTime(Context, Context.SchedulerTimeType.Stride)
        /// Sends what was collected at the end of every interval, and a group as soon as it holds
        /// the given count.
        case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
    }
}
