import Dispatch

extension ContinuousClock.Instant: TimelineInstant {
    /// The instant placed on `DispatchQueue`'s time line (time since boot, as
    /// `DispatchTime.uptimeNanoseconds` counts it), so that a ``CircuitBreaker`` or a limiter
    /// shared between publishers on a `DispatchQueue` and `async` calls on the continuous clock
    /// compares their instants. Read as the uptime now less the time since this instant.
    ///
    /// ```swift
    /// ContinuousClock.now.timelineOffset   // about DispatchQueue.main.now.timelineOffset
    /// ```
    public var timelineOffset: Duration {
        let uptime = Duration.nanoseconds(Int64(clamping: DispatchTime.now().uptimeNanoseconds))
        return uptime - duration(to: ContinuousClock.now)
    }
}
