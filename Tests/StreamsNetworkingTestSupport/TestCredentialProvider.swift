#if canImport(Glibc)
import Dispatch
import Foundation
import Streams
import StreamsNetworking
import StreamsTesting

/// A provider that starts with `stored` and refreshes to `Bearer fresh`, or fails; it counts its
/// refreshes and lets the test hold a refresh until it says.
final class TestCredentialProvider: CredentialProvider, @unchecked Sendable {
    let stored: Credential?
    let fails: Bool
    let refreshes = Locked<[Credential?]>([])
    /// Waited on (bounded, on a thread of its own) before a refresh answers, when set.
    let gate: DispatchSemaphore?

    init(stored: Credential? = .bearer("stale"), fails: Bool = false, gate: DispatchSemaphore? = nil) {
        self.stored = stored
        self.fails = fails
        self.gate = gate
    }

    func storedCredential() -> Credential? { stored }

    func refresh(rejected: Credential?) -> AnyPublisher<Credential, NetworkError> {
        refreshes.withLock { $0.append(rejected) }
        let fails = fails
        let gate = gate
        return Deferred {
            Future<Credential, NetworkError> { promise in
                // A thread of its own: a blocked worker of the global queue could starve the
                // server's and the transport's work on a machine with few cores.
                Thread.detachNewThread {
                    _ = gate?.wait(timeout: .now() + 30)
                    if fails {
                        promise(
                            .failure(
                                .validation(HTTPErrorResponse(status: 400, problem: ProblemDetails(detail: "invalid_grant"))))
                        )
                    } else {
                        promise(.success(.bearer("fresh")))
                    }
                }
            }
        }
        .eraseToAnyPublisher()
    }
}
#endif
