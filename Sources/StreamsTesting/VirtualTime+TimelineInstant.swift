import Streams
import StreamsResilience

extension VirtualTime: TimelineInstant {
    /// Virtual time since the scheduler was made, so that circuit breakers and rate limiters run
    /// on a `TestScheduler`'s clock.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// scheduler.advance(by: .seconds(2))
    /// scheduler.now.timelineOffset   // 2 seconds
    /// ```
    public var timelineOffset: Duration { .nanoseconds(nanoseconds) }
}
