import Dispatch
import Foundation
@testable import Streams
import Testing

/// A subscriber that keeps its subscription, so that a test can look at the delivery turn
/// behind it, and checks what it receives.
final class TurnProbe: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    let checker: DeliveryChecker
    /// Set when subscribed, before any other thread sends.
    private(set) var subscription: (any Subscription)?

    init(senders: Int) {
        checker = DeliveryChecker(senders: senders)
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        checker.receive(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}
}

/// Starts `count` threads running `body` and waits for them for at most `seconds`: false if
/// they are not all done by then (they deadlocked), instead of hanging the test run.
func onThreads(_ count: Int, doneWithin seconds: Int, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    for index in 0..<count {
        Thread {
            body(index)
            done.signal()
        }.start()
    }
    return (0..<count).allSatisfy { _ in done.wait(timeout: .now() + .seconds(seconds)) == .success }
}

@Suite("Stress: delivery turns")
struct DeliveryTurnStressTests {
    static let threads = 8

    /// Eight threads send into one subject without pause: most sends wait for the turn, and the
    /// line of waiting threads is never empty for long. Its storage stays at twice the threads
    /// that wait at once (it used to keep a slot for every send that ever waited).
    @Test func aSubjectsWaitingLineStaysBoundedUnderSustainedContention() throws {
        let threads = Self.threads
        let sends = scaled(40_000)
        let subject = PassthroughSubject<Int, Never>()
        let probe = TurnProbe(senders: threads)
        subject.subscribe(probe)
        onThreads(threads) { thread in
            for index in 0..<sends { subject.send(tag(sender: thread, index: index)) }
        }
        #expect(probe.checker.delivered == threads * sends)
        #expect(probe.checker.misordered == 0)
        #expect(probe.checker.overlaps == 0)
        let conduit = try #require(probe.subscription as? SubjectConduit<TurnProbe>)
        let slots = conduit.state.withLock { $0.turn.waiterSlotsHighWater }
        #expect(slots <= 2 * threads)
        conduit.cancel()
        print("stress: \(threads) threads x \(sends) sends into one subject: at most \(slots) waiter slots")
    }

    /// The same through `flatMap`, each child subject fed by a thread of its own.
    @Test func flatMapsWaitingLineStaysBoundedUnderSustainedContention() throws {
        let threads = Self.threads
        let sends = scaled(20_000)
        let children = (0..<threads).map { _ in PassthroughSubject<Int, Never>() }
        let probe = TurnProbe(senders: threads)
        children.publisher.flatMap { $0 }.subscribe(probe)
        onThreads(threads) { thread in
            for index in 0..<sends { children[thread].send(tag(sender: thread, index: index)) }
        }
        #expect(probe.checker.delivered == threads * sends)
        #expect(probe.checker.misordered == 0)
        #expect(probe.checker.overlaps == 0)
        typealias FlatMap = FlatMapSubscription<
            Publishers.Sequence<[PassthroughSubject<Int, Never>], Never>, PassthroughSubject<Int, Never>, TurnProbe
        >
        let flatMap = try #require(probe.subscription as? FlatMap)
        let slots = flatMap.state.withLock { $0.turn.waiterSlotsHighWater }
        #expect(slots <= 2 * threads)
        flatMap.cancel()
        print("stress: flatMap over \(threads) children on \(threads) threads x \(sends) sends: at most \(slots) waiter slots")
    }

    /// The same through `merge` (its outlet), each upstream subject fed by a thread of its own.
    @Test func mergesWaitingLineStaysBoundedUnderSustainedContention() throws {
        let threads = Self.threads
        let sends = scaled(20_000)
        let upstreams = (0..<threads).map { _ in PassthroughSubject<Int, Never>() }
        let probe = TurnProbe(senders: threads)
        Publishers.MergeMany(upstreams).subscribe(probe)
        onThreads(threads) { thread in
            for index in 0..<sends { upstreams[thread].send(tag(sender: thread, index: index)) }
        }
        #expect(probe.checker.delivered == threads * sends)
        #expect(probe.checker.misordered == 0)
        #expect(probe.checker.overlaps == 0)
        let merge = try #require(probe.subscription as? FanInSubscription<TurnProbe>)
        let slots = merge.outlet.state.withLock { $0.turn.waiterSlotsHighWater }
        #expect(slots <= 2 * threads)
        merge.cancel()
        print("stress: merge of \(threads) upstreams on \(threads) threads x \(sends) sends: at most \(slots) waiter slots")
    }

    /// Two subjects whose subscribers send into each other, each fed from a thread of its own:
    /// each thread, inside one subject's subscriber, sends into the other subject while the
    /// other thread is inside that one's. Neither waits for the other for ever: the send that
    /// would close the cycle is queued for the subscriber's delivering thread, and every value
    /// of every chain arrives.
    @Test func subjectsThatFeedEachOtherFromTwoThreadsDoNotDeadlock() {
        let rounds = scaled(5_000)
        let hops = 6
        let subjects = [PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()]
        let received = [AtomicInt(), AtomicInt()]
        let cancellables = (0..<2).map { side in
            subjects[side].sink { value in
                received[side].add(1)
                if value > 0 { subjects[1 - side].send(value - 1) }
            }
        }
        let finished = onThreads(2, doneWithin: 120) { side in
            for _ in 0..<rounds { subjects[side].send(hops) }
        }
        #expect(finished, "the two threads deadlocked")
        guard finished else { return }
        #expect(received[0].load() + received[1].load() == 2 * rounds * (hops + 1))
        cancellables.forEach { $0.cancel() }
        print("stress: two subjects feeding each other from 2 threads x \(rounds) chains of \(hops) hops: no deadlock")
    }

    /// The same with a `flatMap` and a `merge` in the loop: the cycle goes through their turns.
    @Test func operatorsThatFeedEachOtherFromTwoThreadsDoNotDeadlock() {
        let rounds = scaled(3_000)
        let hops = 6
        let subjects = [PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()]
        let received = [AtomicInt(), AtomicInt()]
        let pipelines = [
            subjects[0].flatMap { Just($0) }.eraseToAnyPublisher(),
            subjects[1].merge(with: Empty()).eraseToAnyPublisher(),
        ]
        let cancellables = (0..<2).map { side in
            let subscriber = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }) { value in
                received[side].add(1)
                if value > 0 { subjects[1 - side].send(value - 1) }
            }
            pipelines[side].subscribe(subscriber)
            return AnyCancellable(subscriber)
        }
        let finished = onThreads(2, doneWithin: 120) { side in
            for _ in 0..<rounds { subjects[side].send(hops) }
        }
        #expect(finished, "the two threads deadlocked")
        guard finished else { return }
        #expect(received[0].load() + received[1].load() == 2 * rounds * (hops + 1))
        cancellables.forEach { $0.cancel() }
        print("stress: flatMap and merge feeding each other from 2 threads x \(rounds) chains: no deadlock")
    }
}
