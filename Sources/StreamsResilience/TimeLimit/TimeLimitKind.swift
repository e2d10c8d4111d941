import Streams

/// Which time limit a ``TimeLimitSubscription`` enforces: everything that tells
/// `attemptTimeout` and `deadline` apart, so that one subscription serves both.
///
/// Both measure from the subscription to the completion; they differ in what they are called,
/// what the downstream fails with when the time is up (a retryable ``AttemptTimeoutError``, or a
/// ``DeadlineExceededError`` that is not), and what `events` is told.
@usableFromInline
enum TimeLimitKind: Sendable {
    /// `attemptTimeout(_:scheduler:events:)`: a time limit per attempt.
    case attemptTimeout
    /// `deadline(_:scheduler:events:)`: a time limit for the whole stream.
    case deadline

    /// The inner object's description, as its operator's type is named.
    @inlinable
    var name: String {
        switch self {
        case .attemptTimeout: "AttemptTimeout"
        case .deadline: "Deadline"
        }
    }

    /// Traps, naming the operator, unless `limit` is zero or more.
    @inlinable
    func check(_ limit: Duration) {
        switch self {
        case .attemptTimeout:
            precondition(limit >= .zero, "attemptTimeout(_:scheduler:) requires a timeout of zero or more, got \(limit)")
        case .deadline:
            precondition(limit >= .zero, "deadline(_:scheduler:) requires a deadline of zero or more, got \(limit)")
        }
    }

    /// What the downstream fails with when `limit` has passed; an attempt's timeout says
    /// whether the call is safe to repeat.
    @inlinable
    func expiry<Underlying: Error>(_ limit: Duration, isSafeToRepeat: Bool) -> ResilienceError<Underlying> {
        switch self {
        case .attemptTimeout: .attemptTimedOut(AttemptTimeoutError(timeout: limit, isSafeToRepeat: isSafeToRepeat))
        case .deadline: .deadlineExceeded(DeadlineExceededError(deadline: limit))
        }
    }

    /// What `events` is told when `limit` has passed.
    @inlinable
    func event(_ limit: Duration) -> ResilienceEvent {
        switch self {
        case .attemptTimeout: .attemptTimedOut(timeout: limit)
        case .deadline: .deadlineExceeded(deadline: limit)
        }
    }
}
