/// Where the selective retry reports each attempt's start and end, each retry it schedules and
/// its give-up.
///
/// The `Streams` module has no public observer of its own: StreamsResilience's
/// `ResilienceEvents` makes one, so that `retry(_:when:backoff:scheduler:events:)` reports to the
/// same observer as the breakers, limiters and timeouts. The retry builds an event only when an
/// observer is set.
@usableFromInline
package struct RetryEventObserver: Sendable {
    /// Told each event, synchronously, outside every lock.
    @usableFromInline
    package let emit: @Sendable (RetryEvent) -> Void

    /// Where a scheduler's instant lies on a time line shared by every scheduler of its kind,
    /// when its time type has one; the retry measures each attempt's duration with it.
    @usableFromInline
    package let timelineOffset: @Sendable (Any) -> Duration?

    package init(
        emit: @escaping @Sendable (RetryEvent) -> Void, timelineOffset: @escaping @Sendable (Any) -> Duration?
    ) {
        self.emit = emit
        self.timelineOffset = timelineOffset
    }
}

/// What the selective retry tells a ``RetryEventObserver``.
@usableFromInline
package enum RetryEvent: Sendable {
    /// Attempt `attempt` (1 for the first subscription) subscribed to the upstream.
    case attemptStarted(attempt: Int)
    /// Attempt `attempt` ended after `duration` (nil where the scheduler's time has no time
    /// line): it delivered a value or finished (`error` nil), or failed.
    case attemptEnded(attempt: Int, duration: Duration?, error: (any Error)?)
    /// Retry `retry` waits `delay` after `error`.
    case retryScheduled(retry: Int, delay: Duration, error: any Error)
    /// The retry gave up after `attempts` attempts, delivering `error`.
    case retryGaveUp(reason: RetryGiveUpReason, attempts: Int, error: any Error)
}
