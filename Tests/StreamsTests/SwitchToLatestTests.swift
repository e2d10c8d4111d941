import Streams
import StreamsTesting
import Testing

@Suite("switchToLatest")
struct SwitchToLatestTests {
    @Test func followsOnlyTheLatestInner() {
        let outer = PassthroughSubject<PassthroughSubject<String, Never>, Never>()
        let first = PassthroughSubject<String, Never>()
        let second = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>()
        outer.switchToLatest().subscribe(subscriber)
        outer.send(first)
        first.send("a")
        outer.send(second)
        first.send("stale")
        second.send("b")
        #expect(subscriber.values == ["a", "b"])
        #expect(subscriber.events.first == .subscription("SwitchToLatest"))
    }

    @Test func cancelsThePreviousInnerBeforeSubscribingTheNext() {
        let log = Log<String>()
        let outer = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        outer.map { index in
            Just(index).append(Empty(completeImmediately: false)).handleEvents(
                receiveSubscription: { _ in log.append("subscribe \(index)") },
                receiveCancel: { log.append("cancel \(index)") })
        }
        .switchToLatest()
        .subscribe(subscriber)
        outer.send(1)
        outer.send(2)
        #expect(log.items == ["subscribe 1", "cancel 1", "subscribe 2"])
        #expect(subscriber.values == [1, 2])
    }

    @Test func finishesWhenOuterAndCurrentInnerFinish() {
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let inner = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        outer.switchToLatest().subscribe(subscriber)
        outer.send(inner)
        outer.send(completion: .finished)
        #expect(subscriber.completion == nil)
        inner.send(completion: .finished)
        #expect(subscriber.completion == .finished)
    }

    @Test func innerFailureFailsTheStream() {
        let outer = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, TestError>()
        outer.map { _ in Fail<Int, TestError>(error: .oops) }.switchToLatest().subscribe(subscriber)
        outer.send(1)
        #expect(subscriber.completion == .failure(.oops))
    }

    @Test func outstandingDemandGoesToTheNewInner() {
        let outer = PassthroughSubject<[Int], Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        outer.map { $0.publisher }.switchToLatest().subscribe(subscriber)
        outer.send([1, 2])
        outer.send([10, 11, 12])
        #expect(subscriber.values == [1, 2, 10])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 10, 11])
    }

    @Test func neverFailingInnersOnAFailingOuter() {
        let outer = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        outer.map { Just($0) }.switchToLatest().subscribe(subscriber)
        outer.send(4)
        outer.send(completion: .failure(.other))
        #expect(subscriber.values == [4])
        #expect(subscriber.completion == .failure(.other))
    }

    @Test func cancelStopsTheCurrentInner() {
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let inner = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        outer.switchToLatest().subscribe(subscriber)
        outer.send(inner)
        subscriber.cancel()
        inner.send(1)
        #expect(subscriber.values.isEmpty)
    }
}
