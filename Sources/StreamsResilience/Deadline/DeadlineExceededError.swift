import Streams

/// The error of a stream that did not finish within its `deadline`, across all its attempts.
///
/// It is not retryable: the time the caller allowed is spent.
///
/// ```swift
/// if case .deadlineExceeded = error { showMessage("The server took too long") }
/// ```
public struct DeadlineExceededError: CategorizedError, RedactingError, Hashable, Sendable {
    /// The deadline that passed, measured from the subscription.
    public let deadline: Duration

    /// Describes a passed deadline.
    ///
    /// ```swift
    /// let error = DeadlineExceededError(deadline: .seconds(30))
    /// ```
    public init(deadline: Duration) {
        self.deadline = deadline
    }

    /// `.nonRetryable`.
    ///
    /// ```swift
    /// DeadlineExceededError(deadline: .seconds(30)).category   // .nonRetryable
    /// ```
    public var category: ErrorCategory { .nonRetryable }
}

extension DeadlineExceededError: ResilienceErrorClassifying {
    @usableFromInline
    package var resilienceKind: ResilienceErrorKind { .deadline }
}
