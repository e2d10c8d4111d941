import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite("PassthroughSubject")
struct PassthroughSubjectTests {
    @Test func broadcastsToEverySubscriberWithoutReplay() {
        let subject = PassthroughSubject<Int, Never>()
        let early = TestSubscriber<Int, Never>()
        subject.subscribe(early)
        subject.send(1)
        let late = TestSubscriber<Int, Never>()
        subject.subscribe(late)
        subject.send(2)
        #expect(early.values == [1, 2])
        #expect(late.values == [2])
    }

    @Test func dropsValuesForASubscriberWithoutDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        subject.subscribe(subscriber)
        subject.send(1)
        subscriber.request(.max(1))
        subject.send(2)
        subject.send(3)
        #expect(subscriber.values == [2])
        subscriber.request(.max(2))
        subject.send(4)
        #expect(subscriber.values == [2, 4])
    }

    @Test func completionReachesEveryoneAndLaterSendsAreIgnored() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        subject.subscribe(subscriber)
        subject.send(completion: .failure(.oops))
        subject.send(1)
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription("PassthroughSubject"), .completion(.failure(.oops))])
    }

    @Test func lateSubscriberGetsOnlyTheCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        subject.send(completion: .finished)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        subject.subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Empty"), .completion(.finished)])
    }

    @Test func completionWithoutDemandIsStillDelivered() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        subject.subscribe(subscriber)
        subject.send(completion: .finished)
        #expect(subscriber.completion == .finished)
    }

    @Test func upstreamSubscriptionIsAskedForUnlimitedOnceThereIsDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let upstream = RecordingSubscription()
        subject.send(subscription: upstream)
        #expect(upstream.requests.isEmpty)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        subject.subscribe(subscriber)
        #expect(upstream.requests.isEmpty)
        subscriber.request(.max(1))
        subscriber.request(.max(1))
        #expect(upstream.requests == [.unlimited])
        let another = RecordingSubscription()
        subject.send(subscription: another)
        #expect(another.requests == [.unlimited])
    }

    @Test func deinitCancelsUpstreamSubscriptions() {
        let upstream = RecordingSubscription()
        do {
            let subject = PassthroughSubject<Int, Never>()
            subject.send(subscription: upstream)
        }
        #expect(upstream.cancels == 1)
    }

    @Test func upstreamSubscriptionsLastAsLongAsASubscriber() {
        let upstream = RecordingSubscription()
        let cancellable: AnyCancellable
        do {
            let subject = PassthroughSubject<Int, Never>()
            subject.send(subscription: upstream)
            cancellable = subject.sink { _ in }
        }
        #expect(upstream.requests == [.unlimited])
        #expect(upstream.cancels == 0)
        cancellable.cancel()
        #expect(upstream.cancels == 1)
    }

    @Test func cancelledSubscriberReceivesNothingMore() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        subject.send(1)
        subscriber.cancel()
        subject.send(2)
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription("PassthroughSubject"), .value(1)])
    }

    @Test func cancelReleasesTheSubscriber() {
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        let subject = PassthroughSubject<Int, Never>()
        let subscription: any Subscription
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.subscribe(subscriber)
            subscription = subscriber.subscription!
        }
        subscription.cancel()
        #expect(weakSubscriber == nil)
    }

    @Test func cancelDuringADeliveryReleasesTheSubscriberWhenTheDeliveryReturns() {
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        let aliveInsideTheDelivery = Log<Bool>()
        let subject = PassthroughSubject<Int, Never>()
        let subscription: any Subscription
        do {
            let subscriber = TestSubscriber<Int, Never> { _ in
                weakSubscriber?.subscription?.cancel()
                aliveInsideTheDelivery.append(weakSubscriber != nil)
            }
            weakSubscriber = subscriber
            subject.subscribe(subscriber)
            subscription = subscriber.subscription!
        }
        subject.send(1)
        subject.send(2)
        #expect(aliveInsideTheDelivery.items == [true])
        #expect(weakSubscriber == nil)
        withExtendedLifetime(subscription) {}
    }

    @Test func cancelRacingWithSendsReleasesTheSubscriber() {
        for _ in 0..<200 {
            weak var weakSubscriber: TestSubscriber<Int, Never>?
            let subject = PassthroughSubject<Int, Never>()
            // Subscriptions are thread-safe, though `Subscription` is not marked `Sendable`.
            nonisolated(unsafe) let subscription: any Subscription
            do {
                let subscriber = TestSubscriber<Int, Never>()
                weakSubscriber = subscriber
                subject.subscribe(subscriber)
                subscription = subscriber.subscription!
            }
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    for value in 0..<100 { subject.send(value) }
                } else {
                    subscription.cancel()
                }
            }
            #expect(weakSubscriber == nil)
        }
    }

    @Test func demandThatGrowsToUnlimitedKeepsEveryValueInOrder() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(2)  // no demand: dropped
        subscriber.request(.unlimited)
        for value in 3...6 { subject.send(value) }
        subscriber.request(.max(1))  // still unlimited
        subject.send(7)
        subject.send(completion: .finished)
        subject.send(8)
        #expect(subscriber.values == [1, 3, 4, 5, 6, 7])
        #expect(subscriber.completion == .finished)
    }

    @Test func subscriptionsComeAndGoWhileOtherThreadsSend() {
        let subject = PassthroughSubject<Int, Never>()
        let conduits = Locked<[WeakConduit]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            if thread < 2 {
                for value in 0..<2_000 { subject.send(value) }
            } else {
                for _ in 0..<200 {
                    let subscriber = TestSubscriber<Int, Never>()
                    subject.subscribe(subscriber)
                    let conduit = subscriber.subscription.map { $0 as AnyObject }
                    conduits.withLock { $0.append(WeakConduit(object: conduit)) }
                    subscriber.cancel()
                }
            }
        }
        // No send is in progress any more: every list that held a cancelled conduit is released.
        #expect(conduits.withLock { $0.allSatisfy { $0.object == nil } })
    }

    @Test func aSubscriberAddedDuringASendGetsOnlyLaterValues() {
        let subject = PassthroughSubject<Int, Never>()
        let late = TestSubscriber<Int, Never>()
        let early = subject.sink { value in
            if value == 1 { subject.subscribe(late) }
        }
        subject.send(1)
        subject.send(2)
        #expect(late.values == [2])
        early.cancel()
    }

    @Test func reentrantSendIsDeliveredAfterTheCurrentValueInOrder() {
        let subject = PassthroughSubject<Int, Never>()
        let order = Log<String>()
        let cancellable = subject.sink { value in
            order.append("begin \(value)")
            if value == 1 { subject.send(2) }
            order.append("end \(value)")
        }
        subject.send(1)
        #expect(order.items == ["begin 1", "end 1", "begin 2", "end 2"])
        cancellable.cancel()
    }

    @Test func reentrantCompletionFollowsQueuedValues() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(onValue: { value in
            if value == 1 {
                subject.send(2)
                subject.send(completion: .finished)
            }
        })
        subject.subscribe(subscriber)
        subject.send(1)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .finished)
    }

    @Test func concurrentSendsAreDeliveredOnceEachAndNeverConcurrently() {
        let subject = PassthroughSubject<Int, Never>()
        let detectors = (0..<3).map { _ in OverlapDetector() }
        let checked = detectors.map { detector in
            TestSubscriber<Int, Never>(onValue: { _ in detector.run() })
        }
        checked.forEach { subject.subscribe($0) }
        let threads = 8
        let perThread = 2_000
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for i in 0..<perThread {
                subject.send(thread * perThread + i)
            }
        }
        for subscriber in checked {
            #expect(subscriber.values.count == threads * perThread)
            #expect(Set(subscriber.values).count == threads * perThread)
        }
        #expect(detectors.allSatisfy { $0.overlaps == 0 })
    }
}

/// A weak reference to a conduit, to see when it is released.
struct WeakConduit: @unchecked Sendable {
    weak var object: AnyObject?
}
