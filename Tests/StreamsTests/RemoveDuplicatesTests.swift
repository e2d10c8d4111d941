import Streams
import StreamsTesting
import Testing

@Suite("removeDuplicates, tryRemoveDuplicates")
struct RemoveDuplicatesTests {
    @Test func dropsConsecutiveDuplicates() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 1, 2, 2, 2, 1, 3, 3].publisher.removeDuplicates().subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 1, 3])
        #expect(subscriber.completion == .finished)
    }

    @Test func comparesWithThePreviousReceivedValueNotThePreviousSent() {
        // "Close enough" chains: each value is compared with the one just before it, even when
        // that one was dropped.
        let subscriber = TestSubscriber<Int, Never>()
        [0, 1, 2, 3, 10].publisher.removeDuplicates { abs($0 - $1) <= 1 }.subscribe(subscriber)
        #expect(subscriber.values == [0, 10])
    }

    @Test func droppedValuesAskUpstreamForMore() {
        let subscriber = TestSubscriber<String, Never>(initialDemand: .max(2))
        ["a", "a", "a", "b", "c"].publisher.removeDuplicates().subscribe(subscriber)
        #expect(subscriber.values == ["a", "b"])
        subscriber.request(.max(1))
        #expect(subscriber.values == ["a", "b", "c"])
        #expect(subscriber.completion == .finished)
    }

    @Test func eachSubscriptionStartsFresh() {
        let publisher = [1, 1, 2].publisher.removeDuplicates()
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>()
        publisher.subscribe(first)
        publisher.subscribe(second)
        #expect(first.values == [1, 2])
        #expect(second.values == [1, 2])
    }

    @Test func tryRemoveDuplicatesFailsWhenThePredicateThrows() {
        let subscriber = TestSubscriber<Int, any Error>()
        [1, 1, 2, -1, 3].publisher
            .tryRemoveDuplicates { previous, next in
                if next < 0 { throw TestError.oops }
                return previous == next
            }
            .subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completions.count == 1)
        #expect(String(describing: subscriber.subscription!) == "TryRemoveDuplicates")
    }

    @Test func subjectFedDuplicates() {
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>()
        subject.removeDuplicates().subscribe(subscriber)
        for name in ["j", "jo", "jo", "joh", "joh", "jo"] { subject.send(name) }
        #expect(subscriber.values == ["j", "jo", "joh", "jo"])
    }
}
