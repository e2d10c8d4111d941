import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("flatMapLatest")
struct FlatMapLatestTests {
    @Test func followsOnlyTheNewestInnerPublisher() {
        let upstream = PassthroughSubject<Int, TestError>()
        let inners = [PassthroughSubject<String, TestError>(), PassthroughSubject<String, TestError>()]
        let subscriber = TestSubscriber<String, TestError>()
        upstream.flatMapLatest { inners[$0] }.subscribe(subscriber)
        upstream.send(0)
        inners[0].send("a")
        upstream.send(1)
        inners[0].send("stale")
        inners[1].send("b")
        #expect(subscriber.values == ["a", "b"])
    }

    @Test func thePreviousInnerIsCancelled() {
        let upstream = PassthroughSubject<Int, TestError>()
        let first = ManualUpstream<String, TestError>(failure: .oops) { "\($0)" }
        let subscriber = TestSubscriber<String, TestError>()
        upstream.flatMapLatest {
            $0 == 0 ? first.eraseToAnyPublisher() : Just("x").setFailureType(to: TestError.self).eraseToAnyPublisher()
        }
        .subscribe(subscriber)
        upstream.send(0)
        upstream.send(1)
        #expect(first.subscriptions.last?.cancels == 1)
        #expect(subscriber.values == ["x"])
    }

    @Test func finishesOnceTheUpstreamAndTheNewestInnerHaveFinished() {
        let upstream = PassthroughSubject<Int, TestError>()
        let inner = PassthroughSubject<String, TestError>()
        let subscriber = TestSubscriber<String, TestError>()
        upstream.flatMapLatest { _ in inner }.subscribe(subscriber)
        upstream.send(0)
        upstream.send(completion: .finished)
        #expect(subscriber.completion == nil)
        inner.send(completion: .finished)
        #expect(subscriber.completions == [.finished])
    }

    @Test func anInnerFailureFailsTheResult() {
        let upstream = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<String, TestError>()
        upstream.flatMapLatest { _ in Fail<String, TestError>(error: .other) }.subscribe(subscriber)
        upstream.send(0)
        #expect(subscriber.completions == [.failure(.other)])
    }

    @Test func demandReachesTheInnerPublisher() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        Just(0).flatMapLatest { _ in [1, 2, 3].publisher }.subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == .finished)
    }

    @Test func cancelStopsTheInnerPublisher() {
        let upstream = PassthroughSubject<Int, TestError>()
        let inner = ManualUpstream<String, TestError>(failure: .oops) { "\($0)" }
        let subscriber = TestSubscriber<String, TestError>()
        upstream.flatMapLatest { _ in inner }.subscribe(subscriber)
        upstream.send(0)
        subscriber.cancel()
        #expect(inner.subscriptions.last?.cancels == 1)
    }

    @Test func theTypeIsSpelledAsInCombineExt() {
        let upstream = PassthroughSubject<Int, Never>()
        let typed: Publishers.SwitchToLatest<Just<String>, Publishers.Map<PassthroughSubject<Int, Never>, Just<String>>> =
            upstream.flatMapLatest { Just("\($0)") }
        _ = typed
    }
}
