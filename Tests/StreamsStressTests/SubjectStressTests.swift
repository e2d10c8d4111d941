import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite("Stress: subjects")
struct SubjectStressTests {
    @Test func subjectFanOutThroughShare() {
        let threads = 4
        let sends = scaled(20_000)
        let sinks = 3
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.share()
        let checkers = (0..<sinks).map { _ in DeliveryChecker(senders: threads) }
        let cancellables = checkers.map { checker in shared.sink { checker.receive($0) } }
        onThreads(threads) { thread in
            for index in 0..<sends {
                subject.send(tag(sender: thread, index: index))
            }
        }
        for checker in checkers {
            #expect(checker.delivered == threads * sends)
            #expect(checker.misordered == 0)
            #expect(checker.overlaps == 0)
        }
        cancellables.forEach { $0.cancel() }
        print(
            "stress: subject fan-out \(threads) threads x \(sends) sends x \(sinks) sinks: "
                + "\(checkers.map(\.delivered).reduce(0, +)) deliveries checked")
    }

    @Test func subscribeAndCancelStormWhileSending() {
        // Two threads send without pause until the storm is over; two others subscribe a sink,
        // wait until it has received a few values, and cancel it. After `cancel()` returns, no
        // value whose `send` began after that is delivered; once the senders are done, every
        // sink's closure is released.
        let senders = 2
        let stormers = 2
        let rounds = scaled(400)
        let subject = PassthroughSubject<Int, Never>()
        let started = (0..<senders).map { _ in AtomicInt() }
        let stormersDone = Atomic<Int>(0)
        // Per round: what the sink received, and per sender the first index sent after cancel.
        let finishedRounds = Locked<[(checker: DeliveryChecker, cutoff: [Int])]>([])
        let witnesses = Locked<[WeakWitness]>([])
        onThreads(senders + stormers) { thread in
            if thread < senders {
                var index = 0
                while stormersDone.load(ordering: .sequentiallyConsistent) < stormers {
                    started[thread].store(index + 1)
                    subject.send(tag(sender: thread, index: index))
                    index += 1
                }
                return
            }
            for round in 0..<rounds {
                let witness = Witness()
                witnesses.withLock { $0.append(WeakWitness(object: witness)) }
                let checker = DeliveryChecker(senders: senders, joiningLate: true)
                let cancellable = subject.map { $0 }.sink { value in
                    withExtendedLifetime(witness) {}
                    checker.receive(value)
                }
                // Let a few values through (none on some rounds), then cancel.
                spin { checker.delivered >= round % 7 }
                cancellable.cancel()
                let cutoff = started.map { $0.load() }
                finishedRounds.withLock { $0.append((checker, cutoff)) }
            }
            stormersDone.add(1, ordering: .sequentiallyConsistent)
        }
        // Each sink received its values in order, so the count from a sender is one past the
        // newest index it got; that must be below the first index sent after the cancel.
        let results = finishedRounds.withLock { $0 }
        let late = results.filter { round in (0..<senders).contains { round.checker.count(from: $0) > round.cutoff[$0] } }
        #expect(late.isEmpty)
        #expect(results.allSatisfy { $0.checker.overlaps == 0 && $0.checker.misordered == 0 })
        #expect(witnesses.withLock { $0.allSatisfy { $0.object == nil } })
        let checked = results.map(\.checker.delivered).reduce(0, +)
        let sent = started.map { $0.load() }.reduce(0, +)
        print(
            "stress: subscribe/cancel storm \(senders) senders (\(sent) sends), \(stormers) threads x \(rounds) "
                + "subscribe/cancel rounds: \(checked) deliveries, "
                + "\(stormers * rounds) releases checked")
    }

    @Test func currentValueSubjectFedFromSeveralThreads() {
        // The subscriber sees every value in its sender's order, never concurrently. (Which
        // value it sees last is not fixed: two sends race between storing the value and
        // delivering it, in Combine too.)
        let threads = 3
        let sends = scaled(10_000)
        let subject = CurrentValueSubject<Int, Never>(-1)
        let checker = DeliveryChecker(senders: threads)
        let cancellable = subject.dropFirst().sink { checker.receive($0) }
        onThreads(threads) { thread in
            for index in 0..<sends { subject.send(tag(sender: thread, index: index)) }
        }
        #expect(checker.delivered == threads * sends)
        #expect(checker.misordered == 0)
        #expect(checker.overlaps == 0)
        cancellable.cancel()
        print("stress: CurrentValueSubject \(threads) threads x \(sends) sends: \(checker.delivered) deliveries checked")
    }
}
