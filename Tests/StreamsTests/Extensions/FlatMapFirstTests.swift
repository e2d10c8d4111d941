import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("flatMapFirst")
struct FlatMapFirstTests {
    @Test func valuesWhileAnInnerRunsAreIgnored() {
        let taps = PassthroughSubject<String, Never>()
        let inner = PassthroughSubject<Int, Never>()
        let transformed = Log<String>()
        let subscriber = TestSubscriber<Int, Never>()
        taps.flatMapFirst { tap in
            transformed.append(tap)
            return inner
        }.subscribe(subscriber)
        taps.send("a")
        inner.send(1)
        taps.send("b")
        taps.send("c")
        inner.send(2)
        #expect(transformed.items == ["a"])
        #expect(subscriber.values == [1, 2])
        #expect(String(describing: subscriber.subscription!) == "FlatMapFirst")
    }

    @Test func theNextValueAfterTheInnerFinishesStartsANewOne() {
        let taps = PassthroughSubject<Int, Never>()
        let inners = [PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()]
        let subscriber = TestSubscriber<Int, Never>()
        taps.flatMapFirst { inners[$0] }.subscribe(subscriber)
        taps.send(0)
        inners[0].send(1)
        inners[0].send(completion: .finished)
        taps.send(1)
        inners[1].send(2)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == nil)
    }

    @Test func aColdUpstreamStartsOnlyItsFirstValuesInner() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3].publisher.flatMapFirst { Just($0).append(Empty(completeImmediately: false)) }.subscribe(subscriber)
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == nil)
    }

    @Test func synchronousInnersEachRunToTheEnd() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3].publisher.flatMapFirst { [$0, $0 * 10].publisher }.subscribe(subscriber)
        #expect(subscriber.values == [1, 10, 2, 20, 3, 30])
        #expect(subscriber.completions == [.finished])
    }

    @Test func finishesWhenTheUpstreamAndTheRunningInnerHaveFinished() {
        let upstream = PassthroughSubject<Int, TestError>()
        let inner = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.flatMapFirst { _ in inner }.subscribe(subscriber)
        upstream.send(0)
        upstream.send(completion: .finished)
        inner.send(1)
        #expect(subscriber.completion == nil)
        inner.send(completion: .finished)
        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.finished])
    }

    @Test func finishesAtOnceWhenNoInnerRuns() {
        let upstream = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.flatMapFirst { Just($0) }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.finished])
    }

    @Test func anInnerFailureFailsTheResultAndCancelsTheUpstream() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.flatMapFirst { _ in Fail<Int, TestError>(error: .other) }.subscribe(subscriber)
        #expect(upstream.subscriptions.last?.requests == [.unlimited])
        upstream.send(0)
        #expect(subscriber.completions == [.failure(.other)])
        #expect(upstream.subscriptions.last?.cancels == 1)
    }

    @Test func anUpstreamFailureFailsTheResultAndCancelsTheInner() {
        let upstream = PassthroughSubject<Int, TestError>()
        let inner = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.flatMapFirst { _ in inner }.subscribe(subscriber)
        upstream.send(0)
        upstream.send(completion: .failure(.other))
        inner.send(5)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completions == [.failure(.other)])
        #expect(inner.subscriptions.last?.cancels == 1)
    }

    @Test func demandGoesToTheInnerAndWhatIsLeftToTheNext() {
        let upstream = PassthroughSubject<Int, Never>()
        let first = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let second = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        upstream.flatMapFirst { $0 == 0 ? first : second }.subscribe(subscriber)
        upstream.send(0)
        #expect(first.subscriptions.last?.requests == [.max(3)])
        #expect(first.send(1) == .none)
        subscriber.request(.max(2))
        #expect(first.subscriptions.last?.requests == [.max(3), .max(2)])
        first.finish()
        upstream.send(1)
        #expect(second.subscriptions.last?.requests == [.max(4)])
    }

    @Test func theDemandReturnedForAValueGoesBackToTheInner() {
        let upstream = PassthroughSubject<Int, Never>()
        let inner = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        upstream.flatMapFirst { _ in inner }.subscribe(subscriber)
        upstream.send(0)
        #expect(inner.send(1) == .max(1))
        #expect(inner.send(2) == .max(1))
        #expect(subscriber.values == [1, 2])
    }

    @Test func noValueGoesDownstreamWithoutDemand() {
        let upstream = PassthroughSubject<Int, Never>()
        let inner = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        upstream.flatMapFirst { _ in inner }.subscribe(subscriber)
        upstream.send(0)
        #expect(inner.subscriptions.last?.requests == [])
        inner.send(1)
        #expect(subscriber.values.isEmpty)
    }

    @Test func cancelCancelsTheUpstreamAndTheInner() {
        let upstream = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let inner = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let subscriber = TestSubscriber<Int, Never>()
        upstream.flatMapFirst { _ in inner }.subscribe(subscriber)
        upstream.send(0)
        subscriber.cancel()
        #expect(upstream.subscriptions.last?.cancels == 1)
        #expect(inner.subscriptions.last?.cancels == 1)
        inner.send(1)
        #expect(subscriber.values.isEmpty)
    }

    @Test func aCancelFromInsideTheDownstreamStopsEverything() {
        let upstream = PassthroughSubject<Int, Never>()
        let inner = PassthroughSubject<Int, Never>()
        var cancellable: AnyCancellable?
        var received: [Int] = []
        cancellable = upstream.flatMapFirst { _ in inner }.sink { value in
            received.append(value)
            cancellable?.cancel()
        }
        upstream.send(0)
        inner.send(1)
        inner.send(2)
        upstream.send(1)
        #expect(received == [1])
        _ = cancellable
    }

    @Test func aRequestFromInsideTheDownstreamGoesToTheInner() {
        let upstream = PassthroughSubject<Int, Never>()
        let subscriber = ReentrantSubscriber()
        upstream.flatMapFirst { _ in [1, 2, 3].publisher }.subscribe(subscriber)
        upstream.send(0)
        #expect(subscriber.values == [1, 2, 3])
    }

    @Test func anUpstreamFailureDuringADeliveryWaitsForItToReturn() {
        let upstream = PassthroughSubject<Int, TestError>()
        let inner = PassthroughSubject<Int, TestError>()
        let events = Log<String>()
        let cancellable = upstream.flatMapFirst { _ in inner }.sink(
            receiveCompletion: { events.append($0 == .failure(.oops) ? "failed" : "finished") },
            receiveValue: { value in
                events.append("value \(value)")
                // The failure arrives while this value is being delivered.
                upstream.send(completion: .failure(.oops))
                events.append("returned")
            })
        upstream.send(0)
        inner.send(1)
        #expect(events.items == ["value 1", "returned", "failed"])
        _ = cancellable
    }
}

/// Asks for one value at a time, with `request` from inside `receive(_:)`.
private final class ReentrantSubscriber: Subscriber, @unchecked Sendable {
    var values: [Int] = []
    var subscription: (any Subscription)?

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.max(1))
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        values.append(input)
        subscription?.request(.max(1))
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}
}
