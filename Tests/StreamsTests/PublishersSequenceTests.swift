import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite("Publishers.Sequence")
struct PublishersSequenceTests {
    @Test func honoursDemandOneAtATime() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        [1, 2, 3].publisher.subscribe(subscriber)
        #expect(subscriber.values == [1])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        // The completion follows the last element without further demand.
        #expect(subscriber.events == [.subscription("[1, 2, 3]"), .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func demandReturnedFromReceiveAddsUp() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        (1...5).publisher.subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3, 4, 5])
        #expect(subscriber.completion == .finished)
    }

    @Test func emptySequenceFinishesAtOnceWithEmptySubscription() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        [Int]().publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Empty"), .completion(.finished)])
    }

    @Test func reentrantRequestsDoNotGrowTheStack() {
        // Each value asks for one more from inside receive(_:): a recursive implementation
        // would need 100,000 nested frames.
        let count = 100_000
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .none)
        var received = 0
        let reentrant = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription in
                subscriber.receive(subscription: subscription)
            },
            receiveValue: { _ in
                received += 1
                subscriber.request(.max(1))
                return .none
            },
            receiveCompletion: { subscriber.receive(completion: $0) })
        (0..<count).publisher.subscribe(reentrant)
        #expect(received == count)
        #expect(subscriber.completion == .finished)
    }

    @Test func reentrantCancelStopsDelivery() {
        var subscriber: TestSubscriber<Int, Never>!
        subscriber = TestSubscriber<Int, Never>(onValue: { value in
            if value == 2 { subscriber.cancel() }
        })
        (1...10).publisher.subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == nil)
    }

    @Test func cancelFromAnotherThreadStopsAnUnlimitedStream() {
        // An endless sequence: the emitting thread only returns if the cancel stops it.
        let received = Atomic<Int>(0)
        let subscriber = TestSubscriber<Int, Never>(
            initialDemand: nil,
            onValue: { _ in
                received.add(1, ordering: .relaxed)
            })
        (0..<Int.max).publisher.subscribe(subscriber)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            subscriber.request(.unlimited)
        }
        while received.load(ordering: .relaxed) < 100 {}
        subscriber.cancel()
        group.wait()
        #expect(subscriber.completion == nil)
    }

    @Test func releasesDownstreamOnCancel() {
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        let subscription: any Subscription
        do {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
            weakSubscriber = subscriber
            [1, 2].publisher.subscribe(subscriber)
            subscription = subscriber.subscription!
        }
        #expect(weakSubscriber != nil)
        subscription.cancel()
        #expect(weakSubscriber == nil)
    }

    @Test func mirrorShowsTheSequence() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        [1].publisher.subscribe(subscriber)
        #expect(Mirror(reflecting: subscriber.subscription!).children.map(\.label) == ["sequence"])
    }

    @Test func requestingNoneDoesNothing() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        [1].publisher.subscribe(subscriber)
        subscriber.request(.none)
        #expect(subscriber.events.count == 1)
    }
}
