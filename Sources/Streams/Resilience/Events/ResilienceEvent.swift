/// Something a resilience strategy did, as told to a ``ResilienceEvents`` observer.
///
/// ```swift
/// let events = ResilienceEvents { event in
///     switch event {
///     case .circuitStateChanged(let state): logger.warning("circuit \(state)")
///     case .limiterRejected(let refusal): metrics.increment("shed.\(refusal.reason)")
///     default: break
///     }
/// }
/// ```
public enum ResilienceEvent: Sendable {
    /// A circuit breaker changed state (in the order of the changes).
    case circuitStateChanged(CircuitState)
    /// A circuit breaker refused a call.
    case circuitRejected(CircuitOpenError)
    /// An attempt ran into its `attemptTimeout` and was cancelled.
    case attemptTimedOut(timeout: Duration)
    /// A stream ran into its `deadline` and was cancelled.
    case deadlineExceeded(deadline: Duration)
    /// A concurrency or rate limiter refused a call.
    case limiterRejected(LimiterRejectedError)
    /// A selective retry is about to wait `delay` before retry number `retry`, after `error`,
    /// the reason for it.
    case retryScheduled(retry: Int, delay: Duration, error: any Error)
    /// A selective retry subscribed to its upstream for attempt number `attempt` (1 for the first).
    case attemptStarted(attempt: Int)
    /// Attempt number `attempt` of a selective retry completed after `duration` (nil when the
    /// scheduler's time is not a ``TimelineInstant``): it finished (`error` nil) or failed.
    case attemptEnded(attempt: Int, duration: Duration?, error: (any Error)?)
    /// A selective retry gave up after `attempts` attempts, for `reason`, and delivers `error`.
    case retryGaveUp(reason: RetryGiveUpReason, attempts: Int, error: any Error)
    /// Hedging subscribed attempt number `attempt` (2 for the first hedge) beside the ones
    /// running: after its delay, or at once after `afterFailure`, a non-fatal failure.
    case hedgeStarted(attempt: Int, afterFailure: (any Error)?)
}
