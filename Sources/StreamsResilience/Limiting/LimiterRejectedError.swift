import Streams

/// The error of a call that a ``ConcurrencyLimiter``, a ``RateLimiter`` or a ``PushbackLimiter``
/// refused.
///
/// It is retryable; a rate limiter's refusal carries the time until a permit is free as its
/// `Retry-After` hint, and a pushback limiter's the time until the server's instant.
///
/// ```swift
/// if case .limiterRejected(let refusal) = error { log("shed: \(refusal.reason)") }
/// ```
public struct LimiterRejectedError: CategorizedError, RedactingError, RetryAfterProviding, Hashable, Sendable {
    /// Why a limiter refuses a call.
    ///
    /// ```swift
    /// if refusal.reason == .queueFull { metrics.increment("bulkhead.full") }
    /// ```
    public enum Reason: Sendable, Hashable {
        /// All of a concurrency limiter's permits are taken and its queue is full.
        case queueFull
        /// A rate limiter has no token, and waiting for one would exceed its limit.
        case rateLimited
        /// The server asked to wait (its `Retry-After`, or its announced quota spent until a
        /// reset) longer than a ``PushbackLimiter``'s `maxWait`.
        case serverPushback
    }

    /// Why the call was refused.
    public let reason: Reason
    /// How long until the limiter could admit the call; nil when unknown.
    public let retryAfter: Duration?

    /// Describes a refusal.
    ///
    /// ```swift
    /// let refusal = LimiterRejectedError(reason: .rateLimited, retryAfter: .milliseconds(100))
    /// ```
    public init(reason: Reason, retryAfter: Duration?) {
        self.reason = reason
        self.retryAfter = retryAfter
    }

    /// `.retryable`.
    ///
    /// ```swift
    /// LimiterRejectedError(reason: .queueFull, retryAfter: nil).category   // .retryable
    /// ```
    public var category: ErrorCategory { .retryable }
}
