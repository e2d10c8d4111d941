import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// A send from another thread while a delivery to that subscriber is under way waits for its
/// turn (bounded memory, the producer runs at the subscriber's pace); a re-entrant send from
/// inside the subscriber is queued and delivered next. These tests use real threads and check
/// counts only: no sleeps, no clocks.
@Suite("Concurrent delivery")
struct ConcurrentDeliveryTests {
    /// Values a test sends from `threads` threads, `perThread` each, tagged with their thread.
    static func tagged(_ thread: Int, _ index: Int) -> Int { thread << 32 | index }

    /// Watches one subscriber fed by several threads: how far the senders ever got ahead of the
    /// deliveries, per-sender order, and whether each sender's value had arrived when its
    /// `send` returned.
    final class PaceProbe: Sendable {
        let threads: Int
        let sent = Atomic<Int>(0)
        let delivered = Atomic<Int>(0)
        let maxLag = Atomic<Int>(0)
        let outOfOrder = Atomic<Int>(0)
        /// Per sender, the index of the newest value delivered.
        let lastIndex: [Slot]
        let detector = OverlapDetector()

        final class Slot: Sendable {
            let index = Atomic<Int>(-1)
        }

        init(threads: Int) {
            self.threads = threads
            lastIndex = (0..<threads).map { _ in Slot() }
        }

        /// Call just before sending `value`.
        func willSend() { sent.add(1, ordering: .sequentiallyConsistent) }

        /// Call from the subscriber; spins a little so that the senders outpace it.
        func receive(_ value: Int) {
            detector.run {
                let lag = sent.load(ordering: .sequentiallyConsistent) - delivered.load(ordering: .sequentiallyConsistent)
                if lag > maxLag.load(ordering: .relaxed) { maxLag.store(lag, ordering: .relaxed) }
                let thread = value >> 32
                let index = value & 0xFFFF_FFFF
                if lastIndex[thread].index.exchange(index, ordering: .sequentiallyConsistent) != index - 1 {
                    outOfOrder.add(1, ordering: .relaxed)
                }
                var spin = 0
                for step in 0..<200 { spin &+= step }
                withExtendedLifetime(spin) {}
                delivered.add(1, ordering: .sequentiallyConsistent)
            }
        }

        /// Whether the value `index` of `thread` has been delivered.
        func hasDelivered(thread: Int, index: Int) -> Bool {
            lastIndex[thread].index.load(ordering: .sequentiallyConsistent) >= index
        }
    }

    @Test func sendsFromOtherThreadsWaitSoTheBacklogStaysBounded() {
        let subject = PassthroughSubject<Int, Never>()
        let threads = 3
        let perThread = 3_000
        let probe = PaceProbe(threads: threads)
        let cancellable = subject.sink { probe.receive($0) }
        let returnedEarly = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                probe.willSend()
                subject.send(Self.tagged(thread, index))
                if !probe.hasDelivered(thread: thread, index: index) {
                    returnedEarly.add(1, ordering: .relaxed)
                }
            }
        }
        // Each sender has at most one value in flight, so the deliveries never fall further
        // behind the sends than one value per sender.
        #expect(probe.maxLag.load(ordering: .relaxed) <= threads)
        #expect(returnedEarly.load(ordering: .relaxed) == 0)
        #expect(probe.delivered.load(ordering: .relaxed) == threads * perThread)
        #expect(probe.outOfOrder.load(ordering: .relaxed) == 0)
        #expect(probe.detector.overlaps == 0)
        cancellable.cancel()
    }

    @Test func mergedUpstreamsOnOtherThreadsWaitForTheDownstream() {
        let threads = 3
        let perThread = 2_000
        let subjects = (0..<threads).map { _ in PassthroughSubject<Int, Never>() }
        let probe = PaceProbe(threads: threads)
        let cancellable = Publishers.MergeMany(subjects).sink { probe.receive($0) }
        let returnedEarly = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                probe.willSend()
                subjects[thread].send(Self.tagged(thread, index))
                if !probe.hasDelivered(thread: thread, index: index) {
                    returnedEarly.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(probe.maxLag.load(ordering: .relaxed) <= threads)
        #expect(returnedEarly.load(ordering: .relaxed) == 0)
        #expect(probe.delivered.load(ordering: .relaxed) == threads * perThread)
        #expect(probe.outOfOrder.load(ordering: .relaxed) == 0)
        #expect(probe.detector.overlaps == 0)
        cancellable.cancel()
    }

    @Test func aReentrantSendIsDeliveredNextEvenWhileOtherThreadsWait() {
        // Every value a sender sends makes the subscriber send its negative re-entrantly; that
        // one is queued and comes right after, before any other thread's value.
        let subject = PassthroughSubject<Int, Never>()
        let received = Log<Int>()
        let cancellable = subject.sink { value in
            received.append(value)
            if value > 0 { subject.send(-value) }
        }
        let threads = 3
        let perThread = 1_000
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 1...perThread {
                subject.send(thread * perThread + index)
            }
        }
        let values = received.items
        #expect(values.count == 2 * threads * perThread)
        var pairsInPlace = true
        for position in stride(from: 0, to: values.count - 1, by: 2)
        where values[position] <= 0 || values[position + 1] != -values[position] {
            pairsInPlace = false
        }
        #expect(pairsInPlace)
        cancellable.cancel()
    }

    @Test func aReentrantSendWithoutDemandIsDroppedNotQueued() {
        // Combine drops a value offered while the subscriber has no demand left, even when the
        // subscriber's `receive` is about to return more: the demand counts when the value is
        // offered.
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1)) { value in
            if value == 1 { subject.send(2) }
        }
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(3)
        #expect(subscriber.values == [1, 3])
    }

    @Test func aReentrantSendWithDemandLeftIsQueuedBehindTheCurrentValue() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2)) { value in
            if value == 1 {
                subject.send(2)
                subject.send(3)  // no demand left: dropped
            }
        }
        subject.subscribe(subscriber)
        subject.send(1)
        subscriber.request(.max(1))
        subject.send(4)
        #expect(subscriber.values == [1, 2, 4])
    }

    @Test func aCurrentValueSubjectDeliversTheLatestMissedValueOnTheNextRequest() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1)) { value in
            if value == 0 {
                subject.send(1)  // no demand: remembered, not queued
                subject.send(2)
            }
        }
        subject.subscribe(subscriber)
        #expect(subscriber.values == [0])
        subscriber.request(.max(1))
        #expect(subscriber.values == [0, 2])
    }

    @Test func aCompletionFromAnotherThreadWaitsForTheDeliveryUnderWay() {
        let subject = PassthroughSubject<Int, Never>()
        let entered = DispatchSemaphore(value: 0)
        let leave = DispatchSemaphore(value: 0)
        let subscriber = TestSubscriber<Int, Never>(onValue: { _ in
            entered.signal()
            leave.wait()
        })
        subject.subscribe(subscriber)
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) { subject.send(1) }
        entered.wait()
        // The completion is sent while the value is being delivered; when `send(completion:)`
        // returns, the subscriber has it, after the value.
        DispatchQueue.global().async(group: done) {
            leave.signal()
            subject.send(completion: .finished)
            #expect(subscriber.completion == .finished)
        }
        done.wait()
        #expect(subscriber.events == [.subscription("PassthroughSubject"), .value(1), .completion(.finished)])
    }

    @Test func aSubjectOutlivesACompletionSentIntoItFromAnotherThreadDuringADelivery() {
        // The upstream of `subscribe(_:)` (a subject) sends its completion on one thread while
        // a value is being sent into the subject on another, and the value's thread returns
        // first: the subject, which nothing else keeps, stays until the completion sent into it
        // has returned (it was released under that call).
        let signals = SubjectSignals()
        let upstream = HandOverUpstream()
        let forwarding = upstream.subscribe(SignallingSubject(signals))
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) {
            _ = upstream.subscriber.withLock { $0 }?.receive(1)
            signals.valueReturned.signal()
        }
        signals.inValue.wait()
        upstream.subscriber.withLock { $0 }?.receive(completion: .finished)
        done.wait()
        #expect(signals.log.withLock { $0 } == ["value", "completion", "subject released"])
        withExtendedLifetime(forwarding) {}
    }

    @Test func cancelWakesAThreadWaitingToDeliver() {
        // A sender waits behind a delivery that cancels the subscription; it gives up instead
        // of delivering (or waiting for ever).
        let subject = PassthroughSubject<Int, Never>()
        let inside = DispatchSemaphore(value: 0)
        let cancelNow = DispatchSemaphore(value: 0)
        let subscriber = TestSubscriber<Int, Never>(onValue: { value in
            guard value == 1 else { return }
            inside.signal()
            cancelNow.wait()
        })
        subject.subscribe(subscriber)
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) { subject.send(1) }
        inside.wait()
        DispatchQueue.global().async(group: done) {
            subject.send(2)  // waits for value 1's delivery, or arrives after the cancel
        }
        subscriber.cancel()
        cancelNow.signal()
        done.wait()
        #expect(subscriber.values == [1])
    }
}

/// What ``SignallingSubject`` tells a test, and what it waits for; it outlives the subject.
private final class SubjectSignals: Sendable {
    let log = Locked<[String]>([])
    /// Signalled once a value is inside the subject's `send(_:)`.
    let inValue = DispatchSemaphore(value: 0)
    /// Signalled once the completion is inside the subject's `send(completion:)`.
    let completing = DispatchSemaphore(value: 0)
    /// Signalled by the test once the value's `receive(_:)` has returned.
    let valueReturned = DispatchSemaphore(value: 0)
}

/// A subject whose `send(_:)` waits for the completion to arrive, and whose
/// `send(completion:)` waits for the value's delivery to have returned.
private final class SignallingSubject: Subject, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never

    let signals: SubjectSignals

    init(_ signals: SubjectSignals) {
        self.signals = signals
    }

    deinit {
        signals.log.withLock { $0.append("subject released") }
    }

    func send(_ value: Int) {
        signals.log.withLock { $0.append("value") }
        signals.inValue.signal()
        signals.completing.wait()
    }

    func send(completion: Subscribers.Completion<Never>) {
        // Only the signals from here on: without its subject kept, `self` went away meanwhile.
        let signals = signals
        signals.completing.signal()
        signals.valueReturned.wait()
        signals.log.withLock { $0.append("completion") }
    }

    func send(subscription: any Subscription) {
        subscription.request(.unlimited)
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {}
}

/// A publisher that hands its subscriber to the test, which then calls it from any thread.
private struct HandOverUpstream: Publisher {
    typealias Output = Int
    typealias Failure = Never

    let subscriber = Locked<AnySubscriber<Int, Never>?>(nil)

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        self.subscriber.withLock { $0 = AnySubscriber(subscriber) }
        subscriber.receive(subscription: Subscriptions.empty)
    }
}
