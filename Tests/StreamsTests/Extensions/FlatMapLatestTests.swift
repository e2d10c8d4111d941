import Streams
import StreamsTesting
import Testing

@Suite("flatMapLatest")
struct FlatMapLatestTests {
    @Test func followsOnlyTheNewestInner() {
        let query = PassthroughSubject<String, Never>()
        let inners = ["a": PassthroughSubject<Int, Never>(), "b": PassthroughSubject<Int, Never>()]
        let subscriber = TestSubscriber<Int, Never>()
        query.flatMapLatest { inners[$0]! }.subscribe(subscriber)
        query.send("a")
        inners["a"]!.send(1)
        query.send("b")
        inners["a"]!.send(99)
        inners["b"]!.send(2)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.events.first == .subscription("SwitchToLatest"))
    }

    @Test func isMapThenSwitchToLatest() {
        let upstream = PassthroughSubject<Int, Never>()
        let composed: Publishers.SwitchToLatest<Just<Int>, Publishers.Map<PassthroughSubject<Int, Never>, Just<Int>>> =
            upstream.flatMapLatest { Just($0) }
        let subscriber = TestSubscriber<Int, Never>()
        composed.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completions == [.finished])
    }

    @Test func cancelsThePreviousInner() {
        let log = Log<String>()
        let upstream = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.flatMapLatest { index in
            Just(index).append(Empty(completeImmediately: false)).handleEvents(
                receiveSubscription: { _ in log.append("subscribe \(index)") },
                receiveCancel: { log.append("cancel \(index)") })
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        subscriber.cancel()
        #expect(log.items == ["subscribe 1", "cancel 1", "subscribe 2", "cancel 2"])
        #expect(subscriber.values == [1, 2])
    }

    @Test func finishesWhenTheUpstreamAndTheCurrentInnerHaveFinished() {
        let upstream = PassthroughSubject<Int, TestError>()
        let inner = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.flatMapLatest { _ in inner }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.completion == nil)
        inner.send(completion: .finished)
        #expect(subscriber.completions == [.finished])
    }

    @Test func anInnerFailureFailsTheResult() {
        let upstream = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.flatMapLatest { _ in Fail<Int, TestError>(error: .oops) }.subscribe(subscriber)
        upstream.send(1)
        #expect(subscriber.completions == [.failure(.oops)])
    }

    @Test func outstandingDemandGoesToTheNewInner() {
        let upstream = PassthroughSubject<[Int], Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        upstream.flatMapLatest { $0.publisher }.subscribe(subscriber)
        upstream.send([1, 2])
        upstream.send([3, 4, 5])
        #expect(subscriber.values == [1, 2, 3])
    }
}
