// The recovery step of the demo: a failed lookup is presented through StreamsRecovery's handler
// chain, and a scripted user answers. Kept in its own file so that main.swift only calls it.

import Dispatch
import SignUpClient
import Streams
import StreamsNetworking
import StreamsRecovery
import Synchronization

/// Looks up "servererror" (the server fails at once with a 500) through
/// `minimumDuration` and `recover(through:presenter:)`. The scripted user reads each
/// presentation for 300 ms, picks "Try Again" the first time (the request is sent again) and
/// "Cancel" the second (the stream finishes quietly). Every attempt is held to at least
/// `minimumMilliseconds`, so the fast failure is not shown before that. Returns whether all of that happened.
func recoveryStep(
    client: UserNameClient<DispatchQueue>,
    queue: DispatchQueue,
    minimumMilliseconds: Int = 500,
    timeline: @escaping @Sendable (String) -> Void
) -> Bool {
    let answers = ["Try Again", "Cancel"]
    let attempts = Mutex<[DispatchTime]>([])
    let heldLongEnough = Mutex(true)
    let presented = Mutex(0)
    let finished = DispatchSemaphore(value: 0)
    let outcome = Mutex<String?>(nil)

    timeline("recover  looking up \"servererror\"; each attempt takes at least \(minimumMilliseconds) ms")
    let cancellable = Deferred { () -> AnyPublisher<Bool, NetworkError> in
        attempts.withLock { $0.append(.now()) }
        return client.isAvailable("servererror")
            .handleEvents(receiveCompletion: { completion in
                if case .failure(let error) = completion { timeline("answer   \(error) (held until the minimum duration)") }
            })
            .eraseToAnyPublisher()
    }
    .minimumDuration(.milliseconds(minimumMilliseconds), scheduler: queue)
    .recover(through: ErrorHandlerChain()) { presentation in
        let count = presented.withLock { count in
            count += 1
            return count
        }
        let started = attempts.withLock { $0.last! }
        let elapsed = Int((DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000)
        if elapsed < minimumMilliseconds { heldLongEnough.withLock { $0 = false } }
        timeline("shown    \(presentation.title): \(presentation.message) (\(elapsed) ms after the request began)")
        timeline("options  \(presentation.options.map(\.description).joined(separator: ", "))")
        let answer = answers[min(count, answers.count) - 1]
        return Just(presentation.option(titled: answer))
            .compactMap { $0 }
            .delay(for: .milliseconds(300), scheduler: queue)
            .handleEvents(receiveOutput: { timeline("user     chose \"\($0.title)\"") })
    }
    .sink(
        receiveCompletion: { completion in
            switch completion {
            case .finished: outcome.withLock { $0 = "finished" }
            case .failure(let error): outcome.withLock { $0 = "failed: \(error)" }
            }
            finished.signal()
        },
        receiveValue: { available in timeline("result   unexpected answer: \(available)") })
    let ended = finished.wait(timeout: .now() + 30) == .success
    cancellable.cancel()

    let sent = attempts.withLock { $0.count }
    let result = outcome.withLock { $0 } ?? "no result"
    let ok = ended && sent == 2 && presented.withLock { $0 } == 2 && result == "finished" && heldLongEnough.withLock { $0 }
    timeline("recover  \(sent) requests, stream \(result)\(ok ? "" : "   (expected: 2 requests, two presentations no sooner than \(minimumMilliseconds) ms, finished)")")
    return ok
}
