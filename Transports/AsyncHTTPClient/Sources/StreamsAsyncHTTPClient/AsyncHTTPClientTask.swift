import Synchronization
import StreamsNetworking

/// One exchange of an ``AsyncHTTPClientTransport``: a Swift task started on `resume()`, and
/// cancelled on `stop()`, which makes AsyncHTTPClient cancel the request and give its
/// connection back (a connection in the middle of a response is closed).
final class AsyncHTTPClientTask: HTTPTransportTask {
    /// Where the task is: not started, running (with the task to cancel), or over.
    private enum Phase {
        case idle(@Sendable () async -> Void)
        case running(Task<Void, Never>)
        case terminated
    }

    private let phase: Mutex<Phase>

    init(_ operation: @escaping @Sendable () async -> Void) {
        phase = Mutex(.idle(operation))
    }

    func resume() {
        phase.withLock { phase in
            guard case .idle(let operation) = phase else { return }
            // Creating the task calls no code of the caller's: the operation runs later,
            // outside the lock.
            phase = .running(Task { await operation() })
        }
    }

    func cancel() {
        phase.withLock { $0 = .terminated }
    }

    func stop() {
        let running: Task<Void, Never>? = phase.withLock { phase in
            defer { phase = .terminated }
            if case .running(let task) = phase { return task }
            return nil
        }
        running?.cancel()
    }
}
