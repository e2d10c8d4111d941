import Streams
import StreamsTesting
import Testing

@Suite("prefix(duration:tolerance:on:options:)")
struct PrefixDurationTests {
    @Test func passesValuesUntilTheDurationHasPassedThenFinishesAndCancels() {
        let scheduler = TestScheduler()
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.prefix(duration: .seconds(2), on: scheduler).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        upstream.send(2)
        scheduler.advance(by: .milliseconds(999))
        #expect(subscriber.completion == nil)
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.completions == [.finished])
        #expect(upstream.subscriptions.last?.cancels == 1)
        upstream.send(3)
        #expect(subscriber.values == [1, 2])
    }

    @Test func theTimeIsMeasuredFromTheSubscription() {
        let scheduler = TestScheduler()
        let upstream = PassthroughSubject<Int, Never>()
        let limited = upstream.prefix(duration: .seconds(2), tolerance: .zero, on: scheduler, options: nil)
        scheduler.advance(by: .seconds(5))
        let subscriber = TestSubscriber<Int, Never>()
        limited.subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        upstream.send(1)
        #expect(subscriber.completion == nil)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.finished])
    }

    @Test func anEarlierCompletionEndsTheStreamOnce() {
        let scheduler = TestScheduler()
        let upstream = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.prefix(duration: .seconds(2), on: scheduler).subscribe(subscriber)
        upstream.send(completion: .failure(.oops))
        scheduler.advance(by: .seconds(3))
        #expect(subscriber.completions == [.failure(.oops)])
    }

    @Test func demandGoesStraightUpstream() {
        let scheduler = TestScheduler()
        let upstream = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.prefix(duration: .seconds(2), on: scheduler).subscribe(subscriber)
        #expect(upstream.subscriptions.last?.requests == [.max(1)])
        subscriber.request(.max(2))
        #expect(upstream.subscriptions.last?.requests == [.max(1), .max(2)])
    }

    @Test func cancelBeforeTheDeadlineCancelsTheUpstreamAndTheDeadline() {
        let scheduler = TestScheduler()
        let upstream = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let subscriber = TestSubscriber<Int, Never>()
        upstream.prefix(duration: .seconds(2), on: scheduler).subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.subscriptions.last?.cancels == 1)
        scheduler.advance(by: .seconds(3))
        #expect(subscriber.completions.isEmpty)
    }

    @Test func aCancelFromInsideTheDownstreamStopsEverything() {
        let scheduler = TestScheduler()
        let upstream = PassthroughSubject<Int, Never>()
        var cancellable: AnyCancellable?
        var received: [Int] = []
        var completions = 0
        cancellable = upstream.prefix(duration: .seconds(2), on: scheduler).sink(
            receiveCompletion: { _ in completions += 1 },
            receiveValue: { value in
                received.append(value)
                cancellable?.cancel()
            })
        upstream.send(1)
        upstream.send(2)
        scheduler.advance(by: .seconds(3))
        #expect(received == [1])
        #expect(completions == 0)
        _ = cancellable
    }
}
