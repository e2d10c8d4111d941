import Foundation

/// What the retry and hedging need to know about an error of any type: whether it is a timeout
/// (a ``RetryBudget`` charges those more), a passed deadline, or a circuit breaker's refusal.
///
/// ``AttemptTimeoutError``, ``DeadlineExceededError`` and ``CircuitOpenError`` are recognised on
/// their own, inside a ``ResilienceError``, and `URLError(.timedOut)` counts as a timeout.
@usableFromInline
enum ResilienceErrorKind {
    case timeout
    case deadline
    case circuitOpen
    case other

    /// The kind of `error`.
    @usableFromInline
    static func of(_ error: any Error) -> ResilienceErrorKind {
        switch error {
        case let wrapped as any ResilienceErrorClassifying: wrapped.resilienceKind
        case is AttemptTimeoutError: .timeout
        case is DeadlineExceededError: .deadline
        case is CircuitOpenError: .circuitOpen
        case let urlError as URLError where urlError.code == .timedOut: .timeout
        default: .other
        }
    }
}

/// An error that knows its ``ResilienceErrorKind`` (``ResilienceError``, whatever its generic
/// parameter).
@usableFromInline
protocol ResilienceErrorClassifying: Error {
    var resilienceKind: ResilienceErrorKind { get }
}

extension ResilienceError: ResilienceErrorClassifying {
    @usableFromInline
    var resilienceKind: ResilienceErrorKind {
        switch self {
        case .upstream(let error): ResilienceErrorKind.of(error)
        case .circuitOpen: .circuitOpen
        case .attemptTimedOut: .timeout
        case .deadlineExceeded: .deadline
        case .limiterRejected: .other
        }
    }
}
