import Streams

/// The error of an attempt that ran longer than its `attemptTimeout`.
///
/// It is retryable: the next attempt may be faster.
///
/// ```swift
/// if case .attemptTimedOut(let timeout) = error { log("attempt gave up after \(timeout.timeout)") }
/// ```
public struct AttemptTimeoutError: CategorizedError, RedactingError, Hashable, Sendable {
    /// The timeout the attempt ran into.
    public let timeout: Duration

    /// Describes a timed-out attempt.
    ///
    /// ```swift
    /// let error = AttemptTimeoutError(timeout: .seconds(10))
    /// ```
    public init(timeout: Duration) {
        self.timeout = timeout
    }

    /// `.retryable`.
    ///
    /// ```swift
    /// AttemptTimeoutError(timeout: .seconds(1)).category   // .retryable
    /// ```
    public var category: ErrorCategory { .retryable }
}

extension AttemptTimeoutError: ResilienceErrorClassifying {
    @usableFromInline
    package var resilienceKind: ResilienceErrorKind { .timeout }
}
