/// A ``ResilienceError`` seen without its type argument: the error of the stage that stopped
/// the call, or nil for the upstream's own.
protocol ResilienceStageErrorCarrying {
    var stageError: (any Error)? { get }
}

extension ResilienceError: ResilienceStageErrorCarrying {
    var stageError: (any Error)? {
        switch self {
        case .upstream: nil
        case .circuitOpen(let error): error
        case .attemptTimedOut(let error): error
        case .deadlineExceeded(let error): error
        case .limiterRejected(let error): error
        }
    }
}
