/// Why `retry(_:when:backoff:scheduler:)` stopped retrying and delivered its last error.
///
/// The retry checks, in this order, and tells the first that applies:
/// 1. `when` refuses the error: `.notRetryable`, or `.circuitOpen` for a breaker's refusal (a
///    circuit isolated by hand) and `.deadline` for a passed ``deadline``;
/// 2. `maxRetries` retries were made: `.exhausted`;
/// 3. the next attempt would start after `maxElapsed`: `.deadline`;
/// 4. the error's hint is longer than `retryAfterLimit`: `.retryAfterOverLimit`, or
///    `.circuitOpen` when the hint is an open circuit's time left;
/// 5. the shared ``RetryBudget`` cannot pay for the retry: `.budgetEmpty`.
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
    /// The error is a passed ``deadline`` (`DeadlineExceededError`, which `when` refuses), or
    /// the retry would have started after `maxElapsed`.
    case deadline
    /// The server's `Retry-After` hint is longer than `retryAfterLimit`.
    case retryAfterOverLimit
    /// The shared ``RetryBudget`` could not pay for the retry.
    case budgetEmpty
    /// A `CircuitBreaker` refused the attempt (`CircuitOpenError`), and the circuit was
    /// isolated by hand (`when` refuses it), or stays open longer than `retryAfterLimit`.
    case circuitOpen
}
