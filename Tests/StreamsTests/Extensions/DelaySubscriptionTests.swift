import Foundation
import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("delaySubscription")
struct DelaySubscriptionTests {
    @Test func subscribesToTheUpstreamOnlyOnceTheDelayHasPassed() {
        let scheduler = TestScheduler()
        let upstream = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let subscriber = TestSubscriber<Int, Never>()
        upstream.delaySubscription(for: .seconds(2), scheduler: scheduler).subscribe(subscriber)
        #expect(subscriber.subscriptionCount == 1)
        #expect(String(describing: subscriber.subscription!) == "DelaySubscription")
        scheduler.advance(by: .milliseconds(1999))
        #expect(upstream.subscriptions.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(upstream.subscriptions.count == 1)
        #expect(upstream.subscriptions.last?.requests == [.unlimited])
        upstream.send(1)
        upstream.send(2)
        upstream.finish()
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completions == [.finished])
        // The scheduled action was cancelled when it ran: it does not come back.
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func valuesAndTheCompletionAreNotDelayed() {
        let scheduler = TestScheduler()
        let subscriber = TestSubscriber<Int, TestError>()
        Publishers.Concatenate(
            prefix: [1, 2].publisher.setFailureType(to: TestError.self), suffix: Fail<Int, TestError>(error: .oops)
        )
        .delaySubscription(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completions == [.failure(.oops)])
        #expect(scheduler.now == .init(nanoseconds: 1_000_000_000))
    }

    @Test func demandRequestedDuringTheWaitIsPassedOnWhenSubscribed() {
        let scheduler = TestScheduler()
        let upstream = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.delaySubscription(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        subscriber.request(.max(3))
        scheduler.advance(by: .seconds(1))
        #expect(upstream.subscriptions.last?.requests == [.max(5)])
        subscriber.request(.max(1))
        #expect(upstream.subscriptions.last?.requests == [.max(5), .max(1)])
    }

    @Test func withNoDemandNothingIsRequested() {
        let scheduler = TestScheduler()
        let upstream = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        upstream.delaySubscription(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        #expect(upstream.subscriptions.count == 1)
        #expect(upstream.subscriptions.last?.requests == [])
    }

    @Test func cancelDuringTheWaitCancelsTheScheduledActionAndNeverSubscribes() {
        let scheduler = TestScheduler()
        let upstream = ManualUpstream<Int, Never>(failure: nil) { $0 }
        weak var released: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            upstream.delaySubscription(for: .seconds(2), scheduler: scheduler).subscribe(subscriber)
            scheduler.advance(by: .seconds(1))
            #expect(scheduler.scheduledCount == 1)
            subscriber.cancel()
            #expect(scheduler.scheduledCount == 0)
            subscriber.cancel()
            released = subscriber
        }
        scheduler.run()
        #expect(upstream.subscriptions.isEmpty)
        #expect(released == nil)
    }

    @Test func cancelFromInsideReceiveSubscriptionSchedulesNothingThatSubscribes() {
        let scheduler = TestScheduler()
        let upstream = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let subscriber = CancellingOnSubscription()
        upstream.delaySubscription(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        #expect(scheduler.scheduledCount == 0)
        scheduler.run()
        #expect(upstream.subscriptions.isEmpty)
    }

    @Test func cancelAfterSubscribingCancelsTheUpstreamAndStopsEverything() {
        let scheduler = TestScheduler()
        let upstream = ManualUpstream<Int, Never>(failure: nil) { $0 }
        weak var released: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            upstream.delaySubscription(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
            scheduler.advance(by: .seconds(1))
            upstream.send(1)
            subscriber.cancel()
            #expect(upstream.subscriptions.last?.cancels == 1)
            upstream.ignoresCancel = true
            upstream.send(2)
            upstream.finish()
            #expect(subscriber.values == [1])
            #expect(subscriber.completions.isEmpty)
            released = subscriber
        }
        #expect(released == nil)
    }

    @Test func aSynchronousSchedulerSubscribesAtOnce() {
        let subscriber = TestSubscriber<Int, Never>()
        Just(1).delaySubscription(for: .zero, scheduler: ImmediateScheduler.shared).subscribe(subscriber)
        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.finished])
    }

    @Test func eachSubscriberWaitsFromItsOwnSubscription() {
        let scheduler = TestScheduler()
        var subscriptions = 0
        let publisher = Deferred {
            subscriptions += 1
            return Just(subscriptions)
        }.delaySubscription(for: .seconds(1), scheduler: scheduler)
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>()
        publisher.subscribe(first)
        scheduler.advance(by: .milliseconds(500))
        publisher.subscribe(second)
        scheduler.advance(by: .milliseconds(500))
        #expect(first.values == [1])
        #expect(second.values.isEmpty)
        scheduler.advance(by: .milliseconds(500))
        #expect(second.values == [2])
    }

    @Test func cancelRacingTheScheduledSubscriptionSubscribesAtMostOnceAndDeliversNothingAfter() async {
        for _ in 0..<200 {
            let scheduler = TestScheduler()
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>()
            subject.delaySubscription(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
            await withTaskGroup(of: Void.self) { group in
                group.addTask { scheduler.advance(by: .seconds(1)) }
                group.addTask { subscriber.cancel() }
            }
            subject.send(1)
            #expect(subscriber.values.isEmpty)
            #expect(scheduler.scheduledCount == 0)
        }
    }
}

/// Cancels its subscription as soon as it gets it.
private final class CancellingOnSubscription: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    func receive(subscription: any Subscription) { subscription.cancel() }
    func receive(_ input: Int) -> Subscribers.Demand { .none }
    func receive(completion: Subscribers.Completion<Never>) {}
}
