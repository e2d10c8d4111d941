import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("withLatestFrom")
struct WithLatestFromTests {
    @Test func eachValueGoesWithTheLatestOfTheOther() {
        let taps = PassthroughSubject<Void, Never>()
        let text = CurrentValueSubject<String, Never>("Hello")
        let subscriber = TestSubscriber<String, Never>()
        taps.withLatestFrom(text).subscribe(subscriber)
        taps.send()
        taps.send()
        text.send("World!")
        taps.send()
        #expect(subscriber.values == ["Hello", "Hello", "World!"])
        #expect(String(describing: subscriber.subscription!) == "WithLatestFrom")
    }

    @Test func theResultSelectorCombinesBoth() {
        let upstream = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>()
        upstream.withLatestFrom(other) { "\($0)\($1)" }.subscribe(subscriber)
        upstream.send(0)
        other.send("a")
        upstream.send(1)
        other.send("b")
        other.send("c")
        upstream.send(2)
        #expect(subscriber.values == ["1a", "2c"])
    }

    @Test func theUpstreamIsSubscribedOnlyOnceTheOtherHasAValue() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let other = PassthroughSubject<String, TestError>()
        let subscriber = TestSubscriber<String, TestError>()
        upstream.withLatestFrom(other).subscribe(subscriber)
        #expect(upstream.subscriptions.isEmpty)
        other.send("a")
        other.send("b")
        #expect(upstream.subscriptions.count == 1)
        #expect(upstream.subscriptions.last?.requests == [.unlimited])
    }

    @Test func aColdUpstreamWaitsForTheOther() {
        let other = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>()
        [1, 2].publisher.withLatestFrom(other) { "\($0)\($1)" }.subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        other.send("x")
        #expect(subscriber.values == ["1x", "2x"])
        #expect(subscriber.completion == .finished)
    }

    @Test func completesWhenTheUpstreamCompletesAndCancelsTheOther() {
        let upstream = PassthroughSubject<Int, TestError>()
        let other = ManualUpstream<String, TestError>(failure: .oops) { "\($0)" }
        let subscriber = TestSubscriber<String, TestError>()
        upstream.withLatestFrom(other).subscribe(subscriber)
        other.send(1)
        upstream.send(0)
        upstream.send(completion: .failure(.other))
        #expect(subscriber.values == ["1"])
        #expect(subscriber.completions == [.failure(.other)])
        #expect(other.subscriptions.last?.cancels == 1)
    }

    @Test func theOtherFinishingAfterAValueKeepsItsLastValue() {
        let upstream = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>()
        upstream.withLatestFrom(other).subscribe(subscriber)
        other.send("last")
        other.send(completion: .finished)
        upstream.send(1)
        upstream.send(2)
        #expect(subscriber.values == ["last", "last"])
        #expect(subscriber.completion == nil)
        upstream.send(completion: .finished)
        #expect(subscriber.completions == [.finished])
    }

    @Test func theOtherFinishingWithoutAValueFinishesTheResult() {
        let upstream = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let subscriber = TestSubscriber<Int, Never>()
        upstream.withLatestFrom(Empty<Int, Never>()).subscribe(subscriber)
        #expect(subscriber.completions == [.finished])
        #expect(upstream.subscriptions.isEmpty)
    }

    @Test func theOthersFailureFailsTheResultAndCancelsTheUpstream() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let other = PassthroughSubject<String, TestError>()
        let subscriber = TestSubscriber<String, TestError>()
        upstream.withLatestFrom(other).subscribe(subscriber)
        other.send("a")
        upstream.send(1)
        other.send(completion: .failure(.other))
        upstream.send(2)
        #expect(subscriber.values == ["a"])
        #expect(subscriber.completions == [.failure(.other)])
        #expect(upstream.subscriptions.last?.cancels == 1)
    }

    @Test func requestsBeforeTheOthersFirstValueAreAddedUp() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let other = PassthroughSubject<String, TestError>()
        let subscriber = TestSubscriber<String, TestError>(initialDemand: .max(2))
        upstream.withLatestFrom(other).subscribe(subscriber)
        subscriber.request(.max(3))
        other.send("a")
        #expect(upstream.subscriptions.last?.requests == [.max(5)])
        subscriber.request(.max(1))
        #expect(upstream.subscriptions.last?.requests == [.max(5), .max(1)])
    }

    @Test func demandIsOneValueOutPerValueIn() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<String, TestError>(initialDemand: .max(1), demandPerValue: .max(1))
        upstream.withLatestFrom(Just("x").setFailureType(to: TestError.self)).subscribe(subscriber)
        #expect(upstream.subscriptions.last?.requests == [.max(1)])
        #expect(upstream.send(1) == .max(1))
        #expect(subscriber.values == ["x"])
    }

    @Test func noRequestBeforeAnyDemand() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<String, TestError>(initialDemand: nil)
        upstream.withLatestFrom(Just("x").setFailureType(to: TestError.self)).subscribe(subscriber)
        #expect(upstream.subscriptions.count == 1)
        #expect(upstream.subscriptions.last?.requests == [])
    }

    @Test func cancelCancelsBoth() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let other = ManualUpstream<String, TestError>(failure: .oops) { "\($0)" }
        let subscriber = TestSubscriber<String, TestError>()
        upstream.withLatestFrom(other).subscribe(subscriber)
        other.send(1)
        subscriber.cancel()
        #expect(upstream.subscriptions.last?.cancels == 1)
        #expect(other.subscriptions.last?.cancels == 1)
        upstream.send(1)
        #expect(subscriber.values.isEmpty)
    }

    @Test func cancelBeforeTheOthersFirstValueNeverSubscribesTheUpstream() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let other = ManualUpstream<String, TestError>(failure: .oops) { "\($0)" }
        let subscriber = TestSubscriber<String, TestError>()
        upstream.withLatestFrom(other).subscribe(subscriber)
        subscriber.cancel()
        other.send(1)
        #expect(other.subscriptions.last?.cancels == 1)
        #expect(upstream.subscriptions.isEmpty)
    }

    @Test func twoOthersWithAndWithoutASelector() {
        let upstream = PassthroughSubject<Int, Never>()
        let first = PassthroughSubject<String, Never>()
        let second = CurrentValueSubject<Bool, Never>(true)
        let tuples = TestSubscriber<String, Never>()
        let selected = TestSubscriber<String, Never>()
        upstream.withLatestFrom(first, second).map { "\($0.0)\($0.1)" }.subscribe(tuples)
        upstream.withLatestFrom(first, second) { value, latest in "\(value)\(latest.0)\(latest.1)" }.subscribe(selected)
        upstream.send(0)
        first.send("a")
        upstream.send(1)
        second.send(false)
        upstream.send(2)
        #expect(tuples.values == ["atrue", "afalse"])
        #expect(selected.values == ["1atrue", "2afalse"])
    }

    @Test func threeOthersWithAndWithoutASelector() {
        let upstream = PassthroughSubject<Int, Never>()
        let a = CurrentValueSubject<String, Never>("a")
        let b = CurrentValueSubject<Int, Never>(1)
        let c = PassthroughSubject<Bool, Never>()
        let tuples = TestSubscriber<String, Never>()
        let selected = TestSubscriber<String, Never>()
        upstream.withLatestFrom(a, b, c).map { "\($0.0)\($0.1)\($0.2)" }.subscribe(tuples)
        upstream.withLatestFrom(a, b, c) { value, latest in "\(value)\(latest.0)\(latest.1)\(latest.2)" }.subscribe(selected)
        upstream.send(0)
        c.send(true)
        upstream.send(1)
        b.send(2)
        upstream.send(3)
        #expect(tuples.values == ["a1true", "a2true"])
        #expect(selected.values == ["1a1true", "3a2true"])
    }

    @Test func theTypeIsSpelledAsInCombineExt() {
        let upstream = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<String, Never>()
        let single: Publishers.WithLatestFrom<PassthroughSubject<Int, Never>, PassthroughSubject<String, Never>, String> =
            upstream.withLatestFrom(other)
        let pair:
            Publishers.WithLatestFrom<
                PassthroughSubject<Int, Never>, AnyPublisher<(String, String), Never>, (String, String)
            > = upstream.withLatestFrom(other, other)
        _ = (single, pair)
    }

    @Test func valuesFromSeveralThreadsEachGetALatestValue() async {
        let upstream = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<Int, Never>()
        let received = Locked(0)
        let cancellable = upstream.withLatestFrom(other) { $0 + $1 }.sink { _ in received.withLock { $0 += 1 } }
        other.send(0)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for value in 1...500 { other.send(value) } }
            for _ in 0..<2 {
                group.addTask { for value in 0..<500 { upstream.send(value) } }
            }
        }
        cancellable.cancel()
        #expect(received.withLock { $0 } == 1000)
    }
}
