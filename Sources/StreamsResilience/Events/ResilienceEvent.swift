import Streams

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
    /// A circuit breaker in shadow mode (``CircuitBreaker/switchToMetricsOnly()``) reached the
    /// thresholds at which it would have opened, with `calls` in its window of which `failures`
    /// failed and `slowCalls` were slow (counted apart only with a `slowCallRatio`); it lets
    /// calls through all the same.
    case circuitWouldOpen(calls: Int, failures: Int, slowCalls: Int)
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
    /// A circuit breaker recorded the outcome of a call that took `duration`: `failed` when it
    /// counts as a failure (a counted error, or slower than the slow-call threshold).
    case circuitCallRecorded(failed: Bool, duration: Duration)
    /// A concurrency, rate or pushback limiter admitted, queued, delayed or let go of a call.
    case limiterUsage(LimiterUsage)
    /// The call failed with `error`, and its fallback, the outermost stage, was asked for a value
    /// instead.
    case fallbackUsed(error: any Error)
}

extension ResilienceEvent: CustomStringConvertible, CustomReflectable {
    /// The case and its values; an error shows as its `Swift.Error.redactedDescription`, so that
    /// an error of a type that is not a `RedactingError` shows only its type, domain and code,
    /// never its message or `userInfo` (where a `URLError` keeps its failing URL).
    ///
    /// ```swift
    /// print(ResilienceEvent.retryScheduled(retry: 1, delay: .seconds(2), error: URLError(.timedOut)))
    /// // retryScheduled(retry: 1, delay: 2.0 seconds, error: URLError(domain: NSURLErrorDomain, code: -1001))
    /// ```
    public var description: String {
        switch self {
        case .circuitStateChanged(let state): "circuitStateChanged(\(state))"
        case .circuitRejected(let refusal): "circuitRejected(\(refusal))"
        case .circuitWouldOpen(let calls, let failures, let slowCalls):
            "circuitWouldOpen(calls: \(calls), failures: \(failures), slowCalls: \(slowCalls))"
        case .attemptTimedOut(let timeout): "attemptTimedOut(timeout: \(timeout))"
        case .deadlineExceeded(let deadline): "deadlineExceeded(deadline: \(deadline))"
        case .limiterRejected(let refusal): "limiterRejected(\(refusal))"
        case .retryScheduled(let retry, let delay, let error):
            "retryScheduled(retry: \(retry), delay: \(delay), error: \(error.redactedDescription))"
        case .attemptStarted(let attempt): "attemptStarted(attempt: \(attempt))"
        case .attemptEnded(let attempt, let duration, let error):
            "attemptEnded(attempt: \(attempt), duration: \(duration.map { "\($0)" } ?? "nil"), "
                + "error: \(error?.redactedDescription ?? "nil"))"
        case .retryGaveUp(let reason, let attempts, let error):
            "retryGaveUp(reason: \(reason), attempts: \(attempts), error: \(error.redactedDescription))"
        case .hedgeStarted(let attempt, let failure):
            "hedgeStarted(attempt: \(attempt), afterFailure: \(failure?.redactedDescription ?? "nil"))"
        case .circuitCallRecorded(let failed, let duration):
            "circuitCallRecorded(failed: \(failed), duration: \(duration))"
        case .limiterUsage(let usage): "limiterUsage(\(usage))"
        case .fallbackUsed(let error): "fallbackUsed(error: \(error.redactedDescription))"
        }
    }

    /// The case and its values, as Swift reflects an enum, except that an error is reflected as
    /// its `Swift.Error.redactedDescription`, never as itself, so that `dump` shows no secret
    /// it holds.
    ///
    /// ```swift
    /// dump(ResilienceEvent.hedgeStarted(attempt: 2, afterFailure: URLError(.timedOut)))
    /// // ▿ hedgeStarted(attempt: 2, afterFailure: URLError(domain: NSURLErrorDomain, code: -1001))
    /// //   ▿ hedgeStarted: (2 elements)
    /// //     - attempt: 2
    /// //     ▿ afterFailure: Optional("URLError(domain: NSURLErrorDomain, code: -1001)")
    /// //       - some: "URLError(domain: NSURLErrorDomain, code: -1001)"
    /// ```
    public var customMirror: Mirror {
        let child: (String, Any) =
            switch self {
            case .circuitStateChanged(let state): ("circuitStateChanged", state)
            case .circuitRejected(let refusal): ("circuitRejected", refusal)
            case .circuitWouldOpen(let calls, let failures, let slowCalls):
                ("circuitWouldOpen", (calls: calls, failures: failures, slowCalls: slowCalls))
            case .attemptTimedOut(let timeout): ("attemptTimedOut", timeout)
            case .deadlineExceeded(let deadline): ("deadlineExceeded", deadline)
            case .limiterRejected(let refusal): ("limiterRejected", refusal)
            case .retryScheduled(let retry, let delay, let error):
                ("retryScheduled", (retry: retry, delay: delay, error: error.redactedDescription))
            case .attemptStarted(let attempt): ("attemptStarted", attempt)
            case .attemptEnded(let attempt, let duration, let error):
                ("attemptEnded", (attempt: attempt, duration: duration, error: error?.redactedDescription))
            case .retryGaveUp(let reason, let attempts, let error):
                ("retryGaveUp", (reason: reason, attempts: attempts, error: error.redactedDescription))
            case .hedgeStarted(let attempt, let failure):
                ("hedgeStarted", (attempt: attempt, afterFailure: failure?.redactedDescription))
            case .circuitCallRecorded(let failed, let duration):
                ("circuitCallRecorded", (failed: failed, duration: duration))
            case .limiterUsage(let usage): ("limiterUsage", usage)
            case .fallbackUsed(let error): ("fallbackUsed", error.redactedDescription)
            }
        return Mirror(self, children: [(label: child.0, value: child.1)], displayStyle: .enum)
    }
}
