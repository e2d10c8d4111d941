import Dispatch
import SignUpClient
import Streams
import StreamsNetworking
import StreamsRecovery
import Synchronization

extension DemoScript {
    /// The user's answers, in order: try again once, then give up.
    static let recoveryAnswers = ["Try Again", "Cancel"]
    /// How long every attempt takes at least, in milliseconds.
    static let minimumMilliseconds = 500

    /// The recovery step: looks up "servererror" (the server fails at once with a 500) through
    /// `minimumDuration` and `recover(through:presenter:)`. The presentation the handler chain
    /// makes is shown in the timeline; the scripted user reads it for 300 ms and picks "Try
    /// Again" the first time (the request is sent again) and "Cancel" the second (the stream
    /// finishes quietly). Every attempt is held to at least `minimumMilliseconds`, so the fast
    /// failure is never shown sooner. Returns whether all of that happened.
    func recoveryStep(client: UserNameClient<DispatchQueue>, queue: DispatchQueue, timeline: Timeline) -> Bool {
        let name = "servererror"
        let mark = timeline.mark()
        let attemptStarts = Mutex<[DispatchTime]>([])
        let shownTooSoon = Mutex(false)
        let presentations = Mutex(0)
        let outcome = Mutex<String?>(nil)
        let ended = DispatchSemaphore(value: 0)

        timeline.line(
            "recover  each attempt takes at least \(Self.minimumMilliseconds) ms; failures go through the handler chain")
        // Each attempt's start is read before `minimumDuration` starts its own clock, so that an
        // attempt held exactly to the minimum is never measured as a millisecond short.
        let subscription = Deferred { () -> AnyPublisher<Bool, NetworkError> in
            attemptStarts.withLock { $0.append(.now()) }
            return client.isAvailable(name)
                .handleEvents(receiveCompletion: { completion in
                    if case .failure(let error) = completion {
                        timeline.line("answer   \(error): held until the minimum duration")
                    }
                })
                .minimumDuration(.milliseconds(Self.minimumMilliseconds), scheduler: queue)
                .eraseToAnyPublisher()
        }
        .recover(through: ErrorHandlerChain()) { presentation in
            let number = presentations.withLock { count in
                count += 1
                return count
            }
            let started = attemptStarts.withLock { $0.last ?? .now() }
            let elapsed = Int((DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000)
            if elapsed < Self.minimumMilliseconds { shownTooSoon.withLock { $0 = true } }
            timeline.line("shown    \(presentation.title): \(presentation.message) (\(elapsed) ms after the request began)")
            timeline.line("options  \(presentation.options.map(\.description).joined(separator: ", "))")
            let answer = Self.recoveryAnswers[min(number, Self.recoveryAnswers.count) - 1]
            return Just(presentation.option(titled: answer))
                .compactMap { $0 }
                .delay(for: .milliseconds(300), scheduler: queue)
                .handleEvents(receiveOutput: { timeline.line("user     chose \"\($0.title)\"") })
        }
        .sink(
            receiveCompletion: { completion in
                switch completion {
                case .finished: outcome.withLock { $0 = "finished" }
                case .failure(let error): outcome.withLock { $0 = "failed with \(error)" }
                }
                ended.signal()
            },
            receiveValue: { available in timeline.line("result   unexpected answer: \(available)") })
        let finished = ended.wait(timeout: .now() + 30) == .success
        subscription.cancel()

        let requests = timeline.events(since: mark).filter {
            if case .event(.request(name)) = $0 { true } else { false }
        }.count
        let result = outcome.withLock { $0 } ?? "no result"
        let passed =
            finished && requests == 2 && presentations.withLock { $0 } == 2 && result == "finished"
            && !shownTooSoon.withLock { $0 }
        timeline.line(
            "recover  \(requests) requests, the stream \(result)"
                + (passed
                    ? "" : "   (expected: 2 requests, 2 presentations no sooner than \(Self.minimumMilliseconds) ms, finished)"))
        return passed
    }
}
