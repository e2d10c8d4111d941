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
    /// A selective retry is about to wait `delay` before retry number `retry`, after `error`
    /// (through ``ResilienceEvents/onRetry()``).
    case retryScheduled(retry: Int, delay: Duration, error: any Error)
}
