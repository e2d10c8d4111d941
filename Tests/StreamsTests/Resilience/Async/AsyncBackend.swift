import Testing
import Streams
import StreamsResilience
import StreamsTesting

/// An `async` backend on a ``TestClock``: each call answers with the next reply of its script
/// (the last one once the script is used up), and records when it came and whether its task
/// was cancelled.
final class AsyncBackend: Sendable {
    /// What one call does.
    enum Reply: Sendable {
        /// Returns 1 at once.
        case value
        /// Throws the error at once.
        case failure(BackendError)
        /// Throws an error carrying a `Retry-After` hint.
        case throttled(Duration)
        /// Returns 1 after the delay on the clock.
        case valueAfter(Duration)
        /// Never answers (until its task is cancelled).
        case hang
        /// Throws `CancellationError` although nobody cancelled it.
        case spuriousCancellation
    }

    /// One call, as the backend saw it.
    struct Call: Sendable, Equatable {
        let at: Duration
        let attempt: ResilienceAttempt
        var cancelled = false
    }

    let clock: TestClock
    private let replies: [Reply]
    private let log = Locked<[Call]>([])

    init(_ replies: [Reply], clock: TestClock) {
        precondition(!replies.isEmpty)
        self.replies = replies
        self.clock = clock
    }

    var calls: [Call] { log.withLock { $0 } }
    /// When each call came, in seconds of virtual time.
    var callTimes: [Duration] { calls.map(\.at) }
    var callCount: Int { calls.count }

    /// Answers one call.
    func call(_ attempt: ResilienceAttempt) async throws -> Int {
        let now = clock.now.timelineOffset
        let index = log.withLock { log in
            log.append(Call(at: now, attempt: attempt))
            return log.count - 1
        }
        do {
            switch replies[min(index, replies.count - 1)] {
            case .value:
                return 1
            case .failure(let error):
                throw error
            case .throttled(let hint):
                throw ThrottledError(retryAfter: hint)
            case .valueAfter(let delay):
                try await clock.sleep(for: delay)
                return 1
            case .hang:
                try await clock.sleep(for: .seconds(1_000_000))
                return 1
            case .spuriousCancellation:
                throw CancellationError()
            }
        } catch is CancellationError where Task.isCancelled {
            log.withLock { $0[index].cancelled = true }
            throw CancellationError()
        }
    }
}

/// A retryable error whose server asked for a wait.
struct ThrottledError: CategorizedError, RetryAfterProviding, Equatable {
    let retryAfter: Duration?
    var category: ErrorCategory { .retryable }
}

/// Waits, in real time and at most ten seconds, until `condition` holds: the point where a test
/// meets tasks that run on other executors (the clock's time moves only when the test moves it).
func eventually(
    isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    for _ in 0..<10_000 {
        if condition() { return }
        await Task.yield()
        try? await Task.sleep(for: .milliseconds(1))
    }
    Issue.record("The condition never held", sourceLocation: sourceLocation)
}
