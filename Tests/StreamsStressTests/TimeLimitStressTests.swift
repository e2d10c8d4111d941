import Dispatch
import Streams
import StreamsResilience
import StreamsTesting
import Testing

@Suite("Stress: time limits racing their upstream")
struct TimeLimitStressTests {
    struct Outage: Error {}

    @Test func aTimeoutRacingTheCompletionDeliversOneCompletion() {
        let trials = scaled(2_000)
        let queue = DispatchQueue(label: "time-limit-stress")
        let doubled = AtomicInt()
        let timedOut = AtomicInt()
        for trial in 0..<trials {
            let subject = PassthroughSubject<Int, Outage>()
            let completions = AtomicInt()
            let cancellable =
                subject
                .attemptTimeout(.zero, scheduler: queue)
                .sink(
                    receiveCompletion: { completion in
                        completions.add(1)
                        if case .failure(.attemptTimedOut) = completion { timedOut.add(1) }
                    }, receiveValue: { _ in })
            let sender = DispatchGroup()
            DispatchQueue.global().async(group: sender) {
                if trial.isMultiple(of: 2) {
                    subject.send(completion: .finished)
                } else {
                    subject.send(completion: .failure(Outage()))
                }
            }
            sender.wait()
            spin { completions.load() >= 1 }
            // The timer has either fired or been cancelled by now; let the queue drain.
            queue.sync {}
            if completions.load() != 1 { doubled.add(1) }
            cancellable.cancel()
        }
        #expect(doubled.load() == 0)
        print(
            "stress: attemptTimeout(.zero) racing completions, \(trials) trials: \(timedOut.load()) timed out, one completion each"
        )
    }
}
