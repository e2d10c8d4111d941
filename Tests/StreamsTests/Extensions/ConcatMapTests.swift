import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("concatMap")
struct ConcatMapTests {
    @Test func runsTheInnersOneAfterAnotherInOrder() {
        let inners = [PassthroughSubject<String, Never>(), PassthroughSubject<String, Never>()]
        let subscriber = TestSubscriber<String, Never>()
        [0, 1].publisher.concatMap { inners[$0] }.subscribe(subscriber)
        inners[1].send("early")
        inners[0].send("a")
        inners[0].send("b")
        inners[0].send(completion: .finished)
        inners[1].send("c")
        inners[1].send(completion: .finished)
        #expect(subscriber.values == ["a", "b", "c"])
        #expect(subscriber.completions == [.finished])
        #expect(subscriber.events.first == .subscription("FlatMap"))
    }

    @Test func returnsCombineExtsConcatMapType() {
        let upstream = PassthroughSubject<Int, Never>()
        let composed: Publishers.ConcatMap<Just<Int>, PassthroughSubject<Int, Never>> = upstream.concatMap { Just($0 * 2) }
        #expect(composed.upstream === upstream)
        let subscriber = TestSubscriber<Int, Never>()
        Publishers.ConcatMap(upstream: [1, 2].publisher, transform: { Just($0 * 10) }).subscribe(subscriber)
        #expect(subscriber.values == [10, 20])
        #expect(subscriber.events.first == .subscription("FlatMap"))
    }

    @Test func theUpstreamIsAskedForOneValueAndTheNextWhenItsInnerFinishes() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let inner = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.concatMap { _ in inner }.subscribe(subscriber)
        #expect(upstream.subscriptions.last?.requests == [.max(1)])
        upstream.send(0)
        inner.send(7)
        #expect(upstream.subscriptions.last?.requests == [.max(1)])
        inner.send(completion: .finished)
        #expect(upstream.subscriptions.last?.requests == [.max(1), .max(1)])
        #expect(subscriber.values == [7])
    }

    @Test func aHotUpstreamDropsWhatItSendsWhileAnInnerRuns() {
        let upstream = PassthroughSubject<Int, Never>()
        let inner = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.concatMap { value in inner.map { $0 * value } }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)  // no demand for it: dropped, as Combine's PassthroughSubject does
        inner.send(5)
        inner.send(completion: .finished)
        upstream.send(3)
        #expect(subscriber.values == [5])
    }

    @Test func demandIsLimitedByTheDownstream() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        [[1, 2], [3, 4]].publisher.concatMap { $0.publisher }.subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        subscriber.request(.max(5))
        #expect(subscriber.values == [1, 2, 3, 4])
        #expect(subscriber.completions == [.finished])
    }

    @Test func anInnerFailureFailsTheResultAndLeavesTheUpstreamAsFlatMapDoes() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>()
        let inner = PassthroughSubject<Int, TestError>()
        upstream.concatMap { _ in inner }.subscribe(subscriber)
        upstream.send(0)
        inner.send(completion: .failure(.other))
        #expect(subscriber.completions == [.failure(.other)])
        // As Combine's flatMap (and so CombineExt's concatMap): the upstream is not cancelled.
        #expect(upstream.subscriptions.last?.cancels == 0)
    }

    @Test func cancelCancelsTheUpstreamAndTheRunningInner() {
        let log = Log<String>()
        let upstream = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let subscriber = TestSubscriber<Int, Never>()
        upstream.concatMap { _ in
            Empty<Int, Never>(completeImmediately: false).handleEvents(receiveCancel: { log.append("inner") })
        }.subscribe(subscriber)
        upstream.send(0)
        subscriber.cancel()
        #expect(log.items == ["inner"])
        #expect(upstream.subscriptions.last?.cancels == 1)
    }
}
