import Dispatch
import Streams
import Synchronization
import Testing

@Suite("Stress: operators fed from several threads")
struct OperatorStressTests {
    @Test func mergeOfSubjectsOnSeveralThreads() {
        let threads = 4
        let sends = scaled(20_000)
        let subjects = (0..<threads).map { _ in PassthroughSubject<Int, Never>() }
        let checker = DeliveryChecker(senders: threads)
        let finished = Atomic<Int>(0)
        let cancellable = Publishers.MergeMany(subjects).sink(
            receiveCompletion: { _ in finished.add(1, ordering: .relaxed) },
            receiveValue: { checker.receive($0) }
        )
        onThreads(threads) { thread in
            for index in 0..<sends {
                subjects[thread].send(tag(sender: thread, index: index))
            }
            subjects[thread].send(completion: .finished)
        }
        #expect(checker.delivered == threads * sends)
        #expect(checker.misordered == 0)
        #expect(checker.overlaps == 0)
        #expect(finished.load(ordering: .relaxed) == 1)
        cancellable.cancel()
        print(
            "stress: merge of \(threads) subjects, \(threads) threads x \(sends) sends: \(checker.delivered) deliveries checked")
    }

    @Test func combineLatestNeverDeliversAStaleCombinationLast() {
        // Two threads each send 0..<steps into one side. Every delivered pair must be at least
        // as new as the one before on both sides, and the last must hold both sides' last values.
        let trials = scaled(3_000)
        let steps = 4
        let staleLast = Atomic<Int>(0)
        let backwards = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        var delivered = 0
        for _ in 0..<trials {
            let a = PassthroughSubject<Int, Never>()
            let b = PassthroughSubject<Int, Never>()
            let last = Shared((-1, -1))
            let inside = Atomic<Int>(0)
            let count = Shared(0)
            let cancellable = a.combineLatest(b).sink { pair in
                if inside.add(1, ordering: .acquiringAndReleasing).newValue > 1 { overlaps.add(1, ordering: .relaxed) }
                if pair.0 < last.value.0 || pair.1 < last.value.1 { backwards.add(1, ordering: .relaxed) }
                last.value = pair
                count.value += 1
                inside.subtract(1, ordering: .acquiringAndReleasing)
            }
            onThreads(2) { side in
                for value in 0..<steps { (side == 0 ? a : b).send(value) }
            }
            if last.value != (steps - 1, steps - 1) { staleLast.add(1, ordering: .relaxed) }
            delivered += count.value
            cancellable.cancel()
        }
        #expect(staleLast.load(ordering: .relaxed) == 0)
        #expect(backwards.load(ordering: .relaxed) == 0)
        #expect(overlaps.load(ordering: .relaxed) == 0)
        print("stress: combineLatest 2 threads x \(steps) sends x \(trials) trials: \(delivered) pairs checked")
    }

    @Test func zipOfSubjectsOnSeveralThreads() {
        let sends = scaled(20_000)
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let pairs = Shared(0)
        let mismatched = Shared(0)
        let checker = DeliveryChecker(senders: 1)
        let cancellable = a.zip(b).sink { pair in
            checker.receive(tag(sender: 0, index: pair.0)) {
                if pair.0 != pair.1 { mismatched.value += 1 }
                pairs.value += 1
            }
        }
        onThreads(2) { side in
            for value in 0..<sends { (side == 0 ? a : b).send(value) }
        }
        #expect(pairs.value == sends)
        #expect(mismatched.value == 0)
        #expect(checker.misordered == 0)
        #expect(checker.overlaps == 0)
        cancellable.cancel()
        print("stress: zip 2 threads x \(sends) sends: \(pairs.value) pairs checked")
    }

    @Test func flatMapWithLimitedPublishersOverInnersOnOtherThreads() {
        // Inner publishers emit on global-queue threads, at most three at a time; the next inner
        // is asked for from whichever thread finished the previous one.
        let inners = scaled(300)
        let perInner = 200
        let maxPublishers = 3
        let checker = DeliveryChecker(senders: inners)
        let done = DispatchSemaphore(value: 0)
        let completions = Atomic<Int>(0)
        let active = Atomic<Int>(0)
        let tooMany = Atomic<Int>(0)
        let cancellable = (0..<inners).publisher
            .flatMap(maxPublishers: .max(maxPublishers)) { inner in
                (0..<perInner).publisher
                    .map { tag(sender: inner, index: $0) }
                    .handleEvents(
                        receiveSubscription: { _ in
                            if active.add(1, ordering: .relaxed).newValue > maxPublishers { tooMany.add(1, ordering: .relaxed) }
                        },
                        receiveCompletion: { _ in active.subtract(1, ordering: .relaxed) }
                    )
                    .subscribe(on: DispatchQueue.global())
            }
            .sink(
                receiveCompletion: { _ in
                    completions.add(1, ordering: .relaxed)
                    done.signal()
                },
                receiveValue: { checker.receive($0) }
            )
        done.wait()
        #expect(checker.delivered == inners * perInner)
        #expect(checker.misordered == 0)
        #expect(checker.overlaps == 0)
        #expect((0..<inners).allSatisfy { checker.count(from: $0) == perInner })
        #expect(tooMany.load(ordering: .relaxed) == 0)
        #expect(completions.load(ordering: .relaxed) == 1)
        cancellable.cancel()
        print(
            "stress: flatMap(maxPublishers: .max(\(maxPublishers))) \(inners) inners x \(perInner) values on global "
                + "threads: \(checker.delivered) deliveries checked")
    }

    @Test func receiveOnRacingCancel() {
        // A thread sends through receive(on:) while another cancels; after `cancel()` returns,
        // no value sent after that is delivered, and once the queue has run everything the
        // sink's closure is released.
        let rounds = scaled(500)
        let sends = 200
        let queue = DispatchQueue(label: "stress.receive-on")
        var lateRounds = 0
        let unreleased = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        var delivered = 0
        for round in 0..<rounds {
            let subject = PassthroughSubject<Int, Never>()
            let started = Atomic<Int>(0)
            let cutoff = Atomic<Int>(Int.max)
            let newest = Atomic<Int>(-1)
            let count = Atomic<Int>(0)
            let inside = Atomic<Int>(0)
            var weakWitness = WeakWitness()
            let cancelAt = round % sends
            let halfway = DispatchSemaphore(value: 0)
            let cancellable: AnyCancellable
            do {
                let witness = Witness()
                weakWitness.object = witness
                cancellable = subject.receive(on: queue).sink { value in
                    withExtendedLifetime(witness) {}
                    if inside.add(1, ordering: .acquiringAndReleasing).newValue > 1 { overlaps.add(1, ordering: .relaxed) }
                    newest.store(value, ordering: .relaxed)
                    count.add(1, ordering: .relaxed)
                    inside.subtract(1, ordering: .acquiringAndReleasing)
                }
            }
            onThreads(2) { thread in
                if thread == 0 {
                    for value in 0..<sends {
                        if value == cancelAt { halfway.signal() }
                        started.store(value + 1, ordering: .sequentiallyConsistent)
                        subject.send(value)
                    }
                } else {
                    halfway.wait()
                    cancellable.cancel()
                    cutoff.store(started.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
                }
            }
            queue.sync {}  // everything scheduled before has run
            // Values arrive in order, so the newest one says whether any was sent after the cancel.
            if newest.load(ordering: .relaxed) >= cutoff.load(ordering: .relaxed) { lateRounds += 1 }
            if weakWitness.object != nil { unreleased.add(1, ordering: .relaxed) }
            delivered += count.load(ordering: .relaxed)
        }
        #expect(lateRounds == 0)
        #expect(unreleased.load(ordering: .relaxed) == 0)
        #expect(overlaps.load(ordering: .relaxed) == 0)
        print("stress: receive(on:) racing cancel, \(rounds) rounds x \(sends) sends: \(delivered) deliveries checked")
    }
}
