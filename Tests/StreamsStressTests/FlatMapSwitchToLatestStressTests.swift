import Dispatch
import Streams
import Synchronization
import Testing

/// A subscriber that checks demand from several threads: it never receives more values than it
/// asked for, and it completes once.
final class DemandCheckingSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    let checker: DeliveryChecker
    let initialDemand: Subscribers.Demand
    let demandPerValue: Subscribers.Demand
    let done = DispatchSemaphore(value: 0)
    let requested = Atomic<Int>(0)
    let overDelivered = Atomic<Int>(0)
    let completions = Atomic<Int>(0)
    /// Set when subscribed, before any other thread asks for values.
    private var subscription: (any Subscription)?

    init(checker: DeliveryChecker, initialDemand: Subscribers.Demand, demandPerValue: Subscribers.Demand) {
        self.checker = checker
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        if let max = initialDemand.max { requested.add(max, ordering: .relaxed) }
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    /// Asks for one more value, from any thread.
    func requestOne() {
        requested.add(1, ordering: .relaxed)
        subscription?.request(.max(1))
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        checker.receive(input)
        if initialDemand != .unlimited, checker.delivered > requested.load(ordering: .relaxed) {
            overDelivered.add(1, ordering: .relaxed)
        }
        if let max = demandPerValue.max { requested.add(max, ordering: .relaxed) }
        return demandPerValue
    }

    func receive(completion: Subscribers.Completion<Never>) {
        completions.add(1, ordering: .relaxed)
        done.signal()
    }
}

@Suite("Stress: flatMap and switchToLatest")
struct FlatMapSwitchToLatestStressTests {
    @Test func flatMapUnderLimitedDemandWithChildrenOnSeveralThreads() {
        // Every child sends on global-queue threads at once; the downstream asks for one value
        // per value, so most values wait in the buffer or for the delivery turn.
        let inners = scaled(60)
        let perInner = 200
        let subscriber = DemandCheckingSubscriber(
            checker: DeliveryChecker(senders: inners), initialDemand: .max(4), demandPerValue: .max(1))
        (0..<inners).publisher
            .flatMap { inner in
                (0..<perInner).publisher.map { tag(sender: inner, index: $0) }.subscribe(on: DispatchQueue.global())
            }
            .subscribe(subscriber)
        subscriber.done.wait()
        #expect(subscriber.checker.delivered == inners * perInner)
        #expect(subscriber.checker.misordered == 0)
        #expect(subscriber.checker.overlaps == 0)
        #expect(subscriber.overDelivered.load(ordering: .relaxed) == 0)
        #expect(subscriber.completions.load(ordering: .relaxed) == 1)
        print(
            "stress: flatMap, \(inners) children x \(perInner) values, one at a time: "
                + "\(subscriber.checker.delivered) deliveries checked")
    }

    @Test func flatMapWithRequestsFromAnotherThread() {
        // The downstream asks for nothing itself: another thread asks for one value at a time
        // while the children send from global-queue threads.
        let inners = scaled(40)
        let perInner = 100
        let total = inners * perInner
        let subscriber = DemandCheckingSubscriber(
            checker: DeliveryChecker(senders: inners), initialDemand: .none, demandPerValue: .none)
        (0..<inners).publisher
            .flatMap(maxPublishers: .max(4)) { inner in
                (0..<perInner).publisher.map { tag(sender: inner, index: $0) }.subscribe(on: DispatchQueue.global())
            }
            .subscribe(subscriber)
        onThreads(2) { thread in
            for _ in 0..<(total / 2 + thread * (total % 2)) { subscriber.requestOne() }
        }
        subscriber.done.wait()
        #expect(subscriber.checker.delivered == total)
        #expect(subscriber.checker.misordered == 0)
        #expect(subscriber.checker.overlaps == 0)
        #expect(subscriber.overDelivered.load(ordering: .relaxed) == 0)
        #expect(subscriber.completions.load(ordering: .relaxed) == 1)
        print("stress: flatMap, \(total) values requested one at a time from two threads")
    }

    @Test func flatMapOfJustFedFromSeveralThreadsUnderLimitedDemand() {
        // Inner `Just`s are not subscribed to: their values take the subscribed children's path
        // through the delivery turn. Several threads send at once while the downstream asks for
        // one value per value, so values wait in the buffer, for the turn, or are delivered.
        let senders = scaled(8)
        let perSender = 2_000
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = DemandCheckingSubscriber(
            checker: DeliveryChecker(senders: senders), initialDemand: .max(4), demandPerValue: .max(1))
        subject.flatMap { Just($0) }.subscribe(subscriber)
        onThreads(senders) { sender in
            for index in 0..<perSender { subject.send(tag(sender: sender, index: index)) }
        }
        subject.send(completion: .finished)
        subscriber.done.wait()
        #expect(subscriber.checker.delivered == senders * perSender)
        #expect(subscriber.checker.misordered == 0)
        #expect(subscriber.checker.overlaps == 0)
        #expect(subscriber.overDelivered.load(ordering: .relaxed) == 0)
        #expect(subscriber.completions.load(ordering: .relaxed) == 1)
        print("stress: flatMap { Just }, \(senders) threads x \(perSender) values, one at a time")
    }

    @Test func switchToLatestSwitchingWhileChildrenSendOnOtherThreads() {
        // New children arrive while earlier ones are still sending on global-queue threads:
        // only the newest is followed, values never go back to an older child, and the last
        // child is delivered in full.
        let rounds = scaled(200)
        let children = 20
        let perChild = 50
        var delivered = 0
        for _ in 0..<rounds {
            let newest = Atomic<Int>(-1)
            let wentBack = Atomic<Int>(0)
            let subscriber = DemandCheckingSubscriber(
                checker: DeliveryChecker(senders: children, joiningLate: true), initialDemand: .unlimited,
                demandPerValue: .none)
            let outer = PassthroughSubject<AnyPublisher<Int, Never>, Never>()
            outer
                .switchToLatest()
                .handleEvents(receiveOutput: { value in
                    if newest.exchange(sender(of: value), ordering: .relaxed) > sender(of: value) {
                        wentBack.add(1, ordering: .relaxed)
                    }
                })
                .subscribe(subscriber)
            for child in 0..<children {
                outer.send(
                    (0..<perChild).publisher.map { tag(sender: child, index: $0) }
                        .subscribe(on: DispatchQueue.global()).eraseToAnyPublisher())
            }
            outer.send(completion: .finished)
            subscriber.done.wait()
            #expect(subscriber.checker.count(from: children - 1) == perChild)
            #expect(subscriber.checker.overlaps == 0)
            #expect(subscriber.checker.misordered == 0)
            #expect(wentBack.load(ordering: .relaxed) == 0)
            #expect(subscriber.completions.load(ordering: .relaxed) == 1)
            delivered += subscriber.checker.delivered
        }
        print("stress: switchToLatest, \(rounds) rounds of \(children) children: \(delivered) deliveries checked")
    }
}
