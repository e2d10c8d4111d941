import Streams

/// The error of an attempt that ran longer than its `attemptTimeout`.
///
/// An attempt cut off by its timeout may have reached the server and taken effect there: the
/// error says so (``mayHaveReachedServer``) and says whether the call is safe to repeat
/// (``isSafeToRepeat``, as `attemptTimeout(_:scheduler:events:isSafeToRepeat:)` was told). It is
/// retryable (the next attempt may be faster) unless both hold and the call is not safe to
/// repeat: a POST without an `Idempotency-Key` that timed out is never sent again.
///
/// ```swift
/// if case .attemptTimedOut(let timeout) = error { log("attempt gave up after \(timeout.timeout)") }
/// ```
public struct AttemptTimeoutError: CategorizedError, RedactingError, Hashable, Sendable {
    /// The timeout the attempt ran into.
    public let timeout: Duration
    /// Whether the attempt may have reached the server before it was cut off. The
    /// `attemptTimeout` operator and the policy's attempt timeout always say true: the attempt
    /// was running. A timeout made by hand can say false when it knows nothing was sent.
    public let mayHaveReachedServer: Bool
    /// Whether the call may be sent again even though it may have taken effect: an idempotent
    /// method or an `Idempotency-Key`. True unless the operator was told otherwise.
    public let isSafeToRepeat: Bool

    /// Describes a timed-out attempt.
    ///
    /// ```swift
    /// let error = AttemptTimeoutError(timeout: .seconds(10))
    /// let post = AttemptTimeoutError(timeout: .seconds(10), isSafeToRepeat: false)   // not retryable
    /// ```
    public init(timeout: Duration, mayHaveReachedServer: Bool = true, isSafeToRepeat: Bool = true) {
        self.timeout = timeout
        self.mayHaveReachedServer = mayHaveReachedServer
        self.isSafeToRepeat = isSafeToRepeat
    }

    /// `.retryable`, or `.nonRetryable` when the attempt may have reached the server and the
    /// call is not safe to repeat.
    ///
    /// ```swift
    /// AttemptTimeoutError(timeout: .seconds(1)).category                          // .retryable
    /// AttemptTimeoutError(timeout: .seconds(1), isSafeToRepeat: false).category   // .nonRetryable
    /// ```
    public var category: ErrorCategory { mayHaveReachedServer && !isSafeToRepeat ? .nonRetryable : .retryable }
}

extension AttemptTimeoutError: ResilienceErrorClassifying {
    @usableFromInline
    package var resilienceKind: ResilienceErrorKind { .timeout }
}
