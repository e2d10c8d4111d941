import Streams
import StreamsTesting

/// The errors of a ``ScriptedBackend``: an outage is retryable, a bad request is not.
enum BackendError: CategorizedError, Equatable {
    case outage, badRequest
    var category: ErrorCategory { self == .outage ? .retryable : .nonRetryable }
}

/// What one call to a ``ScriptedBackend`` does.
enum BackendReply {
    /// Sends 1 and finishes.
    case value
    /// Fails with the error.
    case failure(BackendError)
    /// Sends 1 and finishes after the delay, on the backend's scheduler.
    case valueAfter(VirtualTime.Stride)
    /// Never answers.
    case hang
}

/// A backend that answers each subscription with the next reply of its script (the last one
/// once the script is used up), and records when each subscription came.
final class ScriptedBackend: @unchecked Sendable {
    private let scheduler: TestScheduler
    private let replies: [BackendReply]
    private let calls = Locked<[VirtualTime]>([])

    init(_ replies: [BackendReply], scheduler: TestScheduler) {
        precondition(!replies.isEmpty)
        self.replies = replies
        self.scheduler = scheduler
    }

    /// When each subscription came.
    var callTimes: [VirtualTime] { calls.withLock { $0 } }
    /// How many subscriptions came.
    var callCount: Int { callTimes.count }

    var publisher: AnyPublisher<Int, BackendError> {
        Deferred { [self] () -> AnyPublisher<Int, BackendError> in
            let number = calls.withLock {
                $0.append(scheduler.now)
                return $0.count
            }
            switch replies[min(number, replies.count) - 1] {
            case .value:
                return Just(1).setFailureType(to: BackendError.self).eraseToAnyPublisher()
            case .failure(let error):
                return Fail(error: error).eraseToAnyPublisher()
            case .valueAfter(let delay):
                return Just(1).setFailureType(to: BackendError.self).delay(for: delay, scheduler: scheduler).eraseToAnyPublisher()
            case .hang:
                return Empty(completeImmediately: false).eraseToAnyPublisher()
            }
        }.eraseToAnyPublisher()
    }
}

extension VirtualTime {
    /// The instant `seconds` after the scheduler's start.
    static func seconds(_ seconds: Int) -> VirtualTime { VirtualTime(nanoseconds: Int64(seconds) * 1_000_000_000) }
}

extension TestSubscriber {
    /// The failure the subscriber received, if any.
    var failure: Failure? {
        if case .failure(let error) = completion { return error }
        return nil
    }
}
