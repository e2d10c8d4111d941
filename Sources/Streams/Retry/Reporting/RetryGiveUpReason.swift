/// Why `retry(_:when:backoff:scheduler:)` stopped retrying and delivered its last error.
///
/// The reasons follow the order in which the retry decides: the first that applies is told.
///
/// ```swift
/// request.retry(3, backoff: .exponential(), scheduler: DispatchQueue.main, onGiveUp: { report in
///     if report.reason == .budgetEmpty { metrics.increment("retry.throttled") }
/// })
/// ```
public enum RetryGiveUpReason: Sendable, Hashable {
    /// `when` refused the error (by default: it is not `.retryable`).
    case notRetryable
    /// Every retry allowed by `maxRetries` has been made.
    case exhausted
    /// The retry would have started after `maxElapsed`, or the error is a passed ``deadline``
    /// (``DeadlineExceededError``).
    case deadline
    /// The server's `Retry-After` hint is longer than `retryAfterLimit`.
    case retryAfterOverLimit
    /// The shared ``RetryBudget`` could not pay for the retry.
    case budgetEmpty
    /// A ``CircuitBreaker`` refused the attempt (``CircuitOpenError``), and the circuit stays
    /// open longer than `retryAfterLimit`, or was isolated by hand.
    case circuitOpen
}
