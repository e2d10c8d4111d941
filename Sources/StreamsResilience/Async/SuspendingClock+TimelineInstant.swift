import Dispatch

extension SuspendingClock.Instant: TimelineInstant {
    /// The instant placed on `DispatchQueue`'s time line, as for `ContinuousClock.Instant`.
    ///
    /// ```swift
    /// SuspendingClock.now.timelineOffset   // about DispatchQueue.main.now.timelineOffset
    /// ```
    public var timelineOffset: Duration {
        let uptime = Duration.nanoseconds(Int64(clamping: DispatchTime.now().uptimeNanoseconds))
        return uptime - duration(to: SuspendingClock.now)
    }
}
