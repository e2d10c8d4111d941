import Streams

/// The error of a call that a ``CircuitBreaker`` refused.
///
/// It is retryable, with the time left before the circuit lets a call through again as its
/// `Retry-After` hint, so that `retry(_:when:backoff:scheduler:)` never knocks on an open
/// circuit: it waits at least that long, or gives up at once when the wait is longer than its
/// `retryAfterLimit`. A circuit isolated by hand refuses until it is reset: that error is not
/// retryable and has no hint.
///
/// ```swift
/// if case .circuitOpen(let refusal) = error {
///     print("backend down, next try in \(refusal.retryAfter ?? .zero)")
/// }
/// ```
public struct CircuitOpenError: CategorizedError, RedactingError, RetryAfterProviding, Hashable, Sendable {
    /// The circuit's state when it refused the call: `.open`, `.halfOpen` (its probes are all
    /// out) or `.isolated`.
    public let state: CircuitState
    /// How long until the circuit lets a call through again; nil when unknown (half-open, or
    /// isolated by hand).
    public let retryAfter: Duration?

    /// Describes a refusal.
    ///
    /// ```swift
    /// let refusal = CircuitOpenError(state: .open, retryAfter: .seconds(3))
    /// ```
    public init(state: CircuitState, retryAfter: Duration?) {
        self.state = state
        self.retryAfter = retryAfter
    }

    /// `.retryable`, except for a circuit isolated by hand: `.nonRetryable`.
    ///
    /// ```swift
    /// CircuitOpenError(state: .isolated, retryAfter: nil).category   // .nonRetryable
    /// ```
    public var category: ErrorCategory { state == .isolated ? .nonRetryable : .retryable }
}

extension CircuitOpenError: ResilienceErrorClassifying {
    @usableFromInline
    package var resilienceKind: ResilienceErrorKind { .circuitOpen }
}
