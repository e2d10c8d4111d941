import Streams
import StreamsTesting
import Testing

@Suite("TestSubscriber")
struct TestSubscriberTests {
    @Test func recordsEventsInOrderAndHonoursDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        [1, 2, 3].publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription("[1, 2, 3]"), .value(1)])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func onValueRunsBeforeRecording() {
        var seen: [Int] = []
        let subscriber = TestSubscriber<Int, Never>(onValue: { seen.append($0) })
        Just(7).subscribe(subscriber)
        #expect(seen == [7])
        #expect(subscriber.values == [7])
    }
}
