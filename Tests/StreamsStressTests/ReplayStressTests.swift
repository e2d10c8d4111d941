import Dispatch
import Streams
import StreamsExt
import StreamsTesting
import Synchronization
import Testing

@Suite("Stress: ReplaySubject and share(replay:)")
struct ReplayStressTests {
    @Test func sendersAndLateSubscribers() {
        // Three threads send; a subscriber that was there from the start receives every value in
        // its sender's order, never two at once; subscribers that join meanwhile receive the
        // replayed values and then the live ones with nothing lost, duplicated or reordered
        // between them, and are released once cancelled.
        let senders = 3
        let sends = scaled(10_000)
        let rounds = scaled(300)
        let subject = ReplaySubject<Int, Never>(bufferSize: 8)
        let steady = DeliveryChecker(senders: senders)
        let steadyCancellable = subject.sink { steady.receive($0) }
        let joined = Locked<[DeliveryChecker]>([])
        let witnesses = Locked<[WeakWitness]>([])
        onThreads(senders + 1) { thread in
            if thread < senders {
                for index in 0..<sends { subject.send(tag(sender: thread, index: index)) }
                return
            }
            for round in 0..<rounds {
                let witness = Witness()
                witnesses.withLock { $0.append(WeakWitness(object: witness)) }
                let checker = DeliveryChecker(senders: senders, joiningLate: true)
                let cancellable = subject.sink { value in
                    withExtendedLifetime(witness) {}
                    checker.receive(value)
                }
                spin { checker.delivered >= round % 7 }
                cancellable.cancel()
                joined.withLock { $0.append(checker) }
            }
        }
        #expect(steady.delivered == senders * sends)
        #expect(steady.misordered == 0)
        #expect(steady.overlaps == 0)
        let checkers = joined.withLock { $0 }
        #expect(checkers.allSatisfy { $0.misordered == 0 && $0.overlaps == 0 })
        #expect(witnesses.withLock { $0.allSatisfy { $0.object == nil } })
        steadyCancellable.cancel()
        print(
            "stress: ReplaySubject \(senders) senders x \(sends) sends, \(rounds) late subscribers: "
                + "\(steady.delivered + checkers.map(\.delivered).reduce(0, +)) deliveries checked")
    }

    @Test func shareReplaySubscribeAndCancelStorm() {
        // Threads subscribe to and cancel a share(replay:) while another sends: every connection
        // the share makes is cancelled once nobody uses it, every subscriber is released, and
        // each receives increasing values, never two at once. (Values may be missing between the
        // replayed ones and the live ones: those sent while nobody was connected are lost.)
        let stormers = 3
        let rounds = scaled(500)
        let upstream = PassthroughSubject<Int, Never>()
        let connections = Atomic<Int>(0)
        let disconnections = Atomic<Int>(0)
        let shared = Deferred {
            connections.add(1, ordering: .sequentiallyConsistent)
            return upstream.handleEvents(receiveCancel: { disconnections.add(1, ordering: .sequentiallyConsistent) })
        }.share(replay: 2)
        let stormersDone = Atomic<Int>(0)
        let witnesses = Locked<[WeakWitness]>([])
        let checked = Atomic<Int>(0)
        onThreads(stormers + 1) { thread in
            if thread == stormers {
                var index = 0
                while stormersDone.load(ordering: .sequentiallyConsistent) < stormers {
                    upstream.send(tag(sender: 0, index: index))
                    index += 1
                }
                return
            }
            for round in 0..<rounds {
                let witness = Witness()
                witnesses.withLock { $0.append(WeakWitness(object: witness)) }
                let checker = DeliveryChecker(senders: 1, joiningLate: true)
                let newest = AtomicInt(-1)
                let backwards = AtomicInt()
                let cancellable = shared.sink { value in
                    withExtendedLifetime(witness) {}
                    checker.receive(value) {
                        if newest.exchange(value) >= value { backwards.add(1) }
                    }
                }
                if round.isMultiple(of: 3) { spin { checker.delivered >= 2 } }
                cancellable.cancel()
                #expect(backwards.load() == 0)
                #expect(checker.overlaps == 0)
                checked.add(checker.delivered, ordering: .relaxed)
            }
            stormersDone.add(1, ordering: .sequentiallyConsistent)
        }
        let made = connections.load(ordering: .sequentiallyConsistent)
        #expect(made >= 1)
        #expect(disconnections.load(ordering: .sequentiallyConsistent) == made)
        #expect(witnesses.withLock { $0.allSatisfy { $0.object == nil } })
        print(
            "stress: share(replay:) \(stormers) threads x \(rounds) subscribe/cancel rounds: \(made) connections, "
                + "\(checked.load(ordering: .relaxed)) deliveries checked")
    }
}
