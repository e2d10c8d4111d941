import Streams
import StreamsResilience
import StreamsTesting
import Testing

@Suite("Stress: hedged attempts racing on several threads")
struct HedgeStressTests {
    struct Outage: CategorizedError, Equatable {
        var category: ErrorCategory { .retryable }
    }

    /// Subscribes `attempts` attempts at once (zero delay), each to a subject of its own, and
    /// returns the subjects.
    static func race(
        attempts: Int, scheduler: TestScheduler, subscriber: TestSubscriber<Int, Outage>
    ) -> [PassthroughSubject<Int, Outage>] {
        let subjects = (0..<attempts).map { _ in PassthroughSubject<Int, Outage>() }
        let next = Locked(0)
        Deferred { () -> PassthroughSubject<Int, Outage> in
            let index = next.withLock { count in
                defer { count += 1 }
                return count
            }
            return subjects[index]
        }
        .hedge(maxAttempts: attempts, delay: .zero, scheduler: scheduler)
        .subscribe(subscriber)
        scheduler.advance(by: .zero)
        return subjects
    }

    @Test func attemptsAnsweringAtOnceDeliverOneWinner() {
        let trials = scaled(500)
        let attempts = 4
        let broken = AtomicInt()
        for _ in 0..<trials {
            let scheduler = TestScheduler()
            let subscriber = TestSubscriber<Int, Outage>()
            let subjects = Self.race(attempts: attempts, scheduler: scheduler, subscriber: subscriber)
            onThreads(attempts) { thread in
                subjects[thread].send(thread)
                subjects[thread].send(completion: .finished)
            }
            if subscriber.values.count != 1 || subscriber.completions != [.finished] { broken.add(1) }
        }
        #expect(broken.load() == 0)
        print("stress: hedge, \(trials) trials of \(attempts) attempts answering at once: one winner each")
    }

    @Test func failuresValuesAndACancelRacingDeliverAtMostOneOutcome() {
        let trials = scaled(500)
        let attempts = 3
        let broken = AtomicInt()
        let cancelledFirst = AtomicInt()
        for _ in 0..<trials {
            let scheduler = TestScheduler()
            let subscriber = TestSubscriber<Int, Outage>()
            let subjects = Self.race(attempts: attempts, scheduler: scheduler, subscriber: subscriber)
            onThreads(attempts + 1) { thread in
                if thread == attempts {
                    subscriber.cancel()
                } else if thread == 0 {
                    subjects[thread].send(thread)
                } else {
                    subjects[thread].send(completion: .failure(Outage()))
                }
            }
            if subscriber.values.count > 1 || subscriber.completions.count > 1 { broken.add(1) }
            if subscriber.values.isEmpty && subscriber.completions.isEmpty { cancelledFirst.add(1) }
        }
        #expect(broken.load() == 0)
        print(
            "stress: hedge, \(trials) trials of a value, failures and a cancel racing: \(cancelledFirst.load()) cancelled first")
    }
}
