import Streams

/// Conversions between `Duration` and a scheduler's strides, for the resilience operators.
@usableFromInline
enum ResilienceTime {
    /// `duration` in whole nanoseconds, clamped to `Int64`.
    @inlinable
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, sumOverflow) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        if sumOverflow { return seconds < 0 ? .min : .max }
        return sum
    }

    /// The scheduler's interval for `duration`, clamped.
    @inlinable
    static func stride<Stride: SchedulerTimeIntervalConvertible>(_ duration: Duration) -> Stride {
        .nanoseconds(Int(clamping: nanoseconds(duration)))
    }
}
