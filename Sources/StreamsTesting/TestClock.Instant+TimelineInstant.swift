import Streams
import StreamsResilience

extension TestClock.Instant: TimelineInstant {
    /// Virtual time since the scheduler's start: the same time line as the scheduler's
    /// ``VirtualTime``, so that a circuit breaker or rate limiter shared between publishers on
    /// the ``TestClock/scheduler`` and `async` code on the clock sees one time line.
    ///
    /// ```swift
    /// let clock = TestClock()
    /// await clock.advance(by: .seconds(2))
    /// clock.now.timelineOffset == clock.scheduler.now.timelineOffset   // true: 2 seconds
    /// ```
    public var timelineOffset: Duration { offset }
}
