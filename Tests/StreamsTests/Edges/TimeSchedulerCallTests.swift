import Streams
import StreamsTesting
import Testing

/// The scheduler calls receive(on:), delay, subscribe(on:) and measureInterval
/// make, with their options and tolerance, recorded by a ``CallRecordingScheduler``, and the
/// calls measureInterval does not make outside its subscription.
@Suite("Scheduler calls of receive(on:), delay, subscribe(on:), measureInterval")
struct TimeSchedulerCallTests {
    typealias Call = CallRecordingScheduler.Call

    private func attach<P: Publisher>(_ publisher: P, initialDemand: Subscribers.Demand? = .unlimited)
        -> TestSubscriber<P.Output, P.Failure>
    {
        let subscriber = TestSubscriber<P.Output, P.Failure>(initialDemand: initialDemand)
        publisher.subscribe(subscriber)
        return subscriber
    }

    @Test func receiveOnSchedulesEachValueAndTheCompletionWithItsOptions() {
        let scheduler = CallRecordingScheduler()
        let upstream = ManualUpstream<Int, TestError>(failure: TestError.oops) { $0 }
        let subscriber = attach(upstream.receive(on: scheduler, options: "7"))
        #expect(scheduler.calls.isEmpty)
        upstream.send(1)
        upstream.send(2)
        upstream.fail()
        #expect(scheduler.calls == [.schedule(options: "7"), .schedule(options: "7"), .schedule(options: "7")])
        scheduler.advance()
        #expect(subscriber.values == [1, 2])
        #expect(scheduler.calls.count == 3)
    }

    @Test func delayReadsNowThenSchedulesAfterTheIntervalForEachEvent() {
        let scheduler = CallRecordingScheduler()
        let upstream = ManualUpstream<Int, TestError>(failure: TestError.oops) { $0 }
        let subscriber = attach(upstream.delay(for: .seconds(2), tolerance: .milliseconds(5), scheduler: scheduler, options: "3"))
        #expect(scheduler.calls.isEmpty)
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        upstream.finish()
        let at = { (seconds: Int64) in VirtualTime(nanoseconds: seconds * 1_000_000_000) }
        #expect(
            scheduler.calls == [
                .now, .scheduleAfter(at(2), tolerance: .milliseconds(5), options: "3"),
                .now, .scheduleAfter(at(3), tolerance: .milliseconds(5), options: "3"),
            ])
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.finished])
    }

    @Test func delayWithoutAToleranceUsesTheMinimumTolerance() {
        let scheduler = CallRecordingScheduler(minimumTolerance: .milliseconds(9))
        let upstream = ManualUpstream<Int, TestError>(failure: TestError.oops) { $0 }
        _ = attach(upstream.delay(for: .seconds(1), scheduler: scheduler))
        upstream.send(1)
        #expect(
            scheduler.calls == [
                .minimumTolerance, .now,
                .scheduleAfter(VirtualTime(nanoseconds: 1_000_000_000), tolerance: .milliseconds(9), options: nil),
            ])
    }

    @Test func subscribeOnSchedulesTheSubscribeEveryRequestAndTheCancel() {
        let scheduler = CallRecordingScheduler()
        let upstream = ManualUpstream<Int, TestError>(failure: TestError.oops) { $0 }
        let subscriber = attach(upstream.subscribe(on: scheduler, options: "4"), initialDemand: .max(1))
        #expect(scheduler.calls == [.schedule(options: "4")])
        scheduler.advance()  // subscribes; the subscriber's request is scheduled and runs too
        subscriber.request(.none)
        subscriber.cancel()
        #expect(scheduler.calls == Array(repeating: .schedule(options: "4"), count: 4))
        #expect(upstream.send(1) == .none)
        scheduler.advance()
        #expect(scheduler.calls.count == 4)
    }

    @Test func measureIntervalReadsNowAtTheSubscriptionAndForEachValue() {
        let scheduler = CallRecordingScheduler()
        let upstream = ManualUpstream<Int, TestError>(failure: TestError.oops) { $0 }
        upstream.holdsSubscription = true
        let subscriber = attach(upstream.measureInterval(using: scheduler, options: "1"))
        #expect(scheduler.calls.isEmpty)
        upstream.sendSubscription()
        #expect(scheduler.calls == [.now])
        scheduler.advance(by: .seconds(1))
        upstream.send(1)
        upstream.send(2)
        upstream.finish()
        #expect(scheduler.calls == [.now, .now, .now])
        #expect(subscriber.values == [.seconds(1), .zero])
    }

    /// As in Combine, `now` is read only while subscribed: not for a value before the
    /// subscription, nor for a second subscription.
    @Test func measureIntervalReadsNoClockBeforeItsSubscriptionOrForASecondOne() {
        let scheduler = CallRecordingScheduler()
        let upstream = ManualUpstream<Int, TestError>(failure: TestError.oops) { $0 }
        upstream.holdsSubscription = true
        let subscriber = attach(upstream.measureInterval(using: scheduler))
        #expect(upstream.send(1) == .none)
        #expect(scheduler.calls.isEmpty)
        upstream.sendSubscription()
        #expect(scheduler.calls == [.now])
        #expect(upstream.sendSecondSubscription().cancels == 1)
        #expect(scheduler.calls == [.now])
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.subscriptionCount == 1)
    }

    /// Nor after a cancel or the completion: what follows is ignored without reading the clock.
    @Test(arguments: [true, false])
    func measureIntervalReadsNoClockOnceEnded(_ cancels: Bool) {
        let scheduler = CallRecordingScheduler()
        let upstream = ManualUpstream<Int, TestError>(failure: TestError.oops) { $0 }
        upstream.ignoresCancel = true
        let subscriber = attach(upstream.measureInterval(using: scheduler))
        let calls = scheduler.calls {
            if cancels { subscriber.cancel() } else { upstream.finish() }
            subscriber.request(.max(1000))
            subscriber.cancel()
            #expect(upstream.send(1) == .none)
            upstream.fail()
        }
        #expect(calls.isEmpty)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completions == (cancels ? [] : [Subscribers.Completion<TestError>.finished]))
    }
}
