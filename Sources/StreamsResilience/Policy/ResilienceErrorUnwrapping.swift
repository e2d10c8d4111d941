import Streams

/// A ``ResilienceError`` of any upstream type, seen through: what it wraps.
protocol ResilienceErrorUnwrapping: Error {
    /// The upstream's own error, or the error of the stage that stopped the attempt.
    var unwrapped: any Error { get }
}

extension ResilienceError: ResilienceErrorUnwrapping {
    var unwrapped: any Error {
        switch self {
        case .upstream(let error): error
        case .circuitOpen(let error): error
        case .attemptTimedOut(let error): error
        case .deadlineExceeded(let error): error
        case .limiterRejected(let error): error
        }
    }
}
