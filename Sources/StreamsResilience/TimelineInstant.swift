import Dispatch
import Foundation
import Streams

/// A scheduler's instant placed on a time line that every pipeline reading the same kind of
/// scheduler shares, so that objects shared between pipelines (a ``CircuitBreaker``, a
/// ``RateLimiter``) can compare instants that different pipelines read.
///
/// The resilience operators read time only from their scheduler, so that tests run them on
/// virtual time. `DispatchQueue`, `RunLoop`, `OperationQueue`, `ImmediateScheduler` and
/// StreamsTesting's `TestScheduler` conform. Share one such object only between pipelines whose
/// schedulers are of one kind: their time lines are not comparable with each other.
///
/// ```swift
/// let elapsed = DispatchQueue.main.now.timelineOffset   // time since boot
/// ```
public protocol TimelineInstant {
    /// How far this instant lies from the time line's origin.
    var timelineOffset: Duration { get }
}

extension DispatchQueue.SchedulerTimeType: TimelineInstant {
    /// Time since boot (the dispatch time's uptime).
    ///
    /// ```swift
    /// DispatchQueue.main.now.timelineOffset
    /// ```
    @inlinable
    public var timelineOffset: Duration {
        .nanoseconds(Int64(clamping: dispatchTime.uptimeNanoseconds))
    }
}

extension RunLoop.SchedulerTimeType: TimelineInstant {
    /// Time since Foundation's reference date.
    ///
    /// ```swift
    /// RunLoop.main.now.timelineOffset
    /// ```
    @inlinable
    public var timelineOffset: Duration {
        .seconds(date.timeIntervalSinceReferenceDate)
    }
}

extension OperationQueue.SchedulerTimeType: TimelineInstant {
    /// Time since Foundation's reference date.
    ///
    /// ```swift
    /// OperationQueue.main.now.timelineOffset
    /// ```
    @inlinable
    public var timelineOffset: Duration {
        .seconds(date.timeIntervalSinceReferenceDate)
    }
}

extension ImmediateScheduler.SchedulerTimeType: TimelineInstant {
    /// Always zero: the immediate scheduler's time never moves.
    ///
    /// ```swift
    /// ImmediateScheduler.shared.now.timelineOffset   // .zero
    /// ```
    @inlinable
    public var timelineOffset: Duration { .zero }
}
