@testable import Streams
import StreamsTesting
import Testing

/// measureInterval at the edges, on a virtual-time scheduler.
@Suite("measureInterval at the edges")
struct MeasureIntervalEdgeTests {
    typealias Stride = TestScheduler.SchedulerTimeType.Stride

    private func attach(
        initialDemand: Subscribers.Demand? = .unlimited, demandPerValue: Subscribers.Demand = .none,
        holdingSubscription: Bool = false
    ) -> (ManualUpstream<Int, TestError>, TestSubscriber<Stride, TestError>, TestScheduler) {
        let scheduler = TestScheduler()
        let upstream = ManualUpstream<Int, TestError>(failure: TestError.oops) { $0 }
        upstream.holdsSubscription = holdingSubscription
        let subscriber = TestSubscriber<Stride, TestError>(initialDemand: initialDemand, demandPerValue: demandPerValue)
        upstream.measureInterval(using: scheduler).subscribe(subscriber)
        return (upstream, subscriber, scheduler)
    }

    @Test func theClockStartsWhenTheSubscriptionArrives() {
        let (upstream, subscriber, scheduler) = attach(holdingSubscription: true)
        scheduler.advance(by: .seconds(5))
        upstream.sendSubscription()
        scheduler.advance(by: .seconds(2))
        upstream.send(1)
        scheduler.advance(by: .milliseconds(300))
        upstream.send(2)
        upstream.send(3)
        #expect(subscriber.values == [.seconds(2), .milliseconds(300), .zero])
    }

    /// Combine returns `.none` and requests the downstream's answer upstream instead.
    @Test func theDownstreamsDemandIsRequestedNotReturned() throws {
        let (upstream, subscriber, _) = attach(initialDemand: .max(1), demandPerValue: .max(2))
        let subscription = try #require(upstream.subscriptions.last)
        #expect(upstream.send(1) == .none)
        #expect(subscriber.values.count == 1)
        #expect(subscription.requests == [.max(1), .max(2)])
    }

    @Test func noDemandIsRequestedWhenTheDownstreamReturnsNone() throws {
        let (upstream, _, _) = attach(initialDemand: .max(1))
        let subscription = try #require(upstream.subscriptions.last)
        #expect(upstream.send(1) == .none)
        #expect(subscription.requests == [.max(1)])
    }

    @Test func aValueBeforeTheSubscriptionIsIgnored() {
        let (upstream, subscriber, _) = attach(holdingSubscription: true)
        #expect(upstream.send(1) == .none)
        upstream.ignoresCancel = true
        upstream.finish()
        #expect(subscriber.events.isEmpty)
    }

    @Test func zeroDemandIsForwarded() throws {
        let (upstream, subscriber, _) = attach(initialDemand: nil)
        subscriber.request(.none)
        #expect(try #require(upstream.subscriptions.last).requests == [.none])
    }

    @Test func aCancelBeforeTheSubscriptionIsANoOp() throws {
        let (upstream, subscriber, _) = attach(holdingSubscription: true)
        let inner = try #require(upstream.subscriber as? any Subscription)
        inner.cancel()
        let late = try #require(upstream.sendSubscription())
        #expect(late.cancels == 0)
        #expect(late.requests == [.unlimited])
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func eventsAfterACancelOrTheCompletionAreIgnored() throws {
        for cancels in [true, false] {
            let (upstream, subscriber, _) = attach()
            upstream.ignoresCancel = true
            if cancels { subscriber.cancel() } else { upstream.finish() }
            let seen = subscriber.events.count
            #expect(upstream.send(1) == .none)
            upstream.fail()
            subscriber.request(.max(1))
            subscriber.cancel()
            #expect(subscriber.events.count == seen)
            let subscription = try #require(upstream.subscriptions.last)
            #expect(subscription.requests == [.unlimited])
            #expect(subscription.cancels == (cancels ? 1 : 0))
        }
    }
}

/// The state machine behind measureInterval, driven directly.
@Suite("MeasureIntervalStateMachine")
struct MeasureIntervalStateMachineTests {
    typealias Machine = MeasureIntervalStateMachine<TestSubscriber<VirtualTime.Stride, Never>, VirtualTime>

    private func time(_ milliseconds: Int) -> VirtualTime {
        VirtualTime(nanoseconds: Int64(milliseconds) * 1_000_000)
    }

    @Test func measuresFromTheSubscriptionThenFromEachValue() {
        var machine = Machine(downstream: TestSubscriber())
        let measured = machine.receiveValue(now: time(1))
        #expect(measured == nil)
        let forwardedTo = machine.request()
        #expect(forwardedTo == nil)
        guard case .none = machine.cancel() else { Issue.record("cancelled before the subscription"); return }
        let completed = machine.receiveCompletion()
        #expect(completed == nil)
        let upstream = RecordingSubscription()
        let handedDown = machine.receiveSubscription(upstream, now: time(10))
        #expect(handedDown != nil)
        let handedDown2 = machine.receiveSubscription(RecordingSubscription(), now: time(11))
        #expect(handedDown2 == nil)
        let measured2 = machine.receiveValue(now: time(25))
        #expect(measured2?.interval == .milliseconds(15))
        let second = machine.receiveValue(now: time(26))
        #expect(second?.interval == .milliseconds(1))
        #expect((second?.upstream as AnyObject?) === upstream)
        let forwardedTo2 = machine.request()
        #expect((forwardedTo2 as AnyObject?) === upstream)
    }

    @Test func theCompletionAndACancelTerminate() {
        for cancels in [true, false] {
            var machine = Machine(downstream: TestSubscriber())
            _ = machine.receiveSubscription(RecordingSubscription(), now: time(0))
            let ended: Bool
            if cancels {
                if case .cancel = machine.cancel() { ended = true } else { ended = false }
            } else {
                ended = machine.receiveCompletion() != nil
            }
            #expect(ended)
            guard case .terminated = machine.phase else { Issue.record("not terminated"); return }
            let measured = machine.receiveValue(now: time(1))
            #expect(measured == nil)
            let completed = machine.receiveCompletion()
            #expect(completed == nil)
            guard case .none = machine.cancel() else { Issue.record("cancelled twice"); return }
            let forwardedTo = machine.request()
            #expect(forwardedTo == nil)
        }
    }
}
