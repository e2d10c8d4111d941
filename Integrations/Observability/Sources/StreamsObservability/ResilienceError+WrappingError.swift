import StreamsResilience

/// A publisher's `ResilienceError` names the error it carries, so that the same failure has the
/// same `error.type` whether a publisher or `execute` (which throws the errors unwrapped) met it.
extension ResilienceError: WrappingError {
    var wrapped: any Error {
        switch self {
        case .upstream(let error): error
        case .circuitOpen(let error): error
        case .attemptTimedOut(let error): error
        case .deadlineExceeded(let error): error
        case .limiterRejected(let error): error
        }
    }
}
