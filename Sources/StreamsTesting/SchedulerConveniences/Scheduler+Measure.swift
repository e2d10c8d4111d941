import Streams

extension Scheduler {
    /// How much of this scheduler's time `work` took: on a test scheduler, how far the clock was
    /// advanced while it ran.
    ///
    /// ```swift
    /// let elapsed = scheduler.measure { scheduler.advance(by: .seconds(2)) }   // 2 s
    /// ```
    public func measure(_ work: () throws -> Void) rethrows -> SchedulerTimeType.Stride {
        let start = now
        try work()
        return start.distance(to: now)
    }
}
