@testable import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// receive(on:) and delay at the edges. They share their state rules: each test runs against
/// both, on a virtual-time scheduler.
@Suite("receive(on:) and delay at the edges")
struct ReceiveOnDelayEdgeTests {
    enum Operator: String, CaseIterable, CustomTestStringConvertible {
        case receiveOn = "receive(on:)"
        case delay

        var testDescription: String { rawValue }

        func apply(to upstream: ManualUpstream<Int, TestError>, on scheduler: TestScheduler) -> AnyPublisher<Int, TestError> {
            switch self {
            case .receiveOn: upstream.receive(on: scheduler).eraseToAnyPublisher()
            case .delay: upstream.delay(for: .seconds(1), scheduler: scheduler).eraseToAnyPublisher()
            }
        }

        /// Runs the work the operator has scheduled so far.
        func runScheduled(on scheduler: TestScheduler) {
            scheduler.advance(by: self == .delay ? .seconds(1) : .zero)
        }
    }

    /// An upstream, `op` on it and a subscriber asking for `initialDemand`, returning
    /// `demandPerValue` from each value.
    private func attach(
        _ op: Operator, initialDemand: Subscribers.Demand? = .unlimited, demandPerValue: Subscribers.Demand = .none,
        holdingSubscription: Bool = false, onValue: ((Int) -> Void)? = nil
    ) -> (ManualUpstream<Int, TestError>, TestSubscriber<Int, TestError>, TestScheduler) {
        let scheduler = TestScheduler()
        let upstream = ManualUpstream<Int, TestError>(failure: TestError.oops) { $0 }
        upstream.holdsSubscription = holdingSubscription
        let subscriber = TestSubscriber<Int, TestError>(
            initialDemand: initialDemand, demandPerValue: demandPerValue, onValue: onValue)
        op.apply(to: upstream, on: scheduler).subscribe(subscriber)
        return (upstream, subscriber, scheduler)
    }

    private func subscription(_ upstream: ManualUpstream<Int, TestError>) throws -> ManualSubscription {
        try #require(upstream.subscriptions.last)
    }

    @Test(arguments: Operator.allCases)
    func aValueIsScheduledAndNoDemandIsReturned(_ op: Operator) {
        let (upstream, subscriber, scheduler) = attach(op)
        #expect(upstream.send(1) == .none)
        #expect(subscriber.values.isEmpty)
        #expect(scheduler.scheduledCount == 1)
        op.runScheduled(on: scheduler)
        #expect(subscriber.values == [1])
    }

    @Test(arguments: Operator.allCases)
    func theReturnedDemandIsRequestedUpstreamAfterTheDelivery(_ op: Operator) throws {
        let (upstream, subscriber, scheduler) = attach(op, initialDemand: .max(1), demandPerValue: .max(2))
        let subscription = try subscription(upstream)
        upstream.send(1)
        #expect(subscription.requests == [.max(1)])
        op.runScheduled(on: scheduler)
        #expect(subscriber.values == [1])
        #expect(subscription.requests == [.max(1), .max(2)])
    }

    @Test(arguments: Operator.allCases)
    func noDemandIsRequestedWhenTheDownstreamCancelsWhileReceiving(_ op: Operator) throws {
        var subscriber: TestSubscriber<Int, TestError>?
        let (upstream, recorder, scheduler) = attach(
            op, initialDemand: .max(1), demandPerValue: .max(1), onValue: { _ in subscriber?.cancel() })
        subscriber = recorder
        let subscription = try subscription(upstream)
        upstream.send(1)
        op.runScheduled(on: scheduler)
        #expect(recorder.values == [1])
        #expect(subscription.requests == [.max(1)])
        #expect(subscription.cancels == 1)
        subscriber = nil
    }

    @Test(arguments: Operator.allCases)
    func aValueScheduledBeforeACancelIsDropped(_ op: Operator) throws {
        let (upstream, subscriber, scheduler) = attach(op, demandPerValue: .max(1))
        let subscription = try subscription(upstream)
        upstream.send(1)
        subscriber.cancel()
        #expect(subscription.cancels == 1)
        op.runScheduled(on: scheduler)
        #expect(subscriber.values.isEmpty)
        #expect(subscription.requests == [.unlimited])
    }

    /// Combine: once the completion is pending, `cancel()` is a no-op, and the completion (and
    /// the values scheduled before it) are delivered after the cancel.
    @Test(arguments: Operator.allCases)
    func aCompletionScheduledBeforeACancelIsStillDelivered(_ op: Operator) throws {
        let (upstream, subscriber, scheduler) = attach(op)
        let subscription = try subscription(upstream)
        upstream.send(1)
        upstream.fail()
        subscriber.cancel()
        #expect(subscription.cancels == 0)
        op.runScheduled(on: scheduler)
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .failure(.oops))
    }

    /// As in Combine, the upstream's subscription is kept while the completion is pending: a
    /// value scheduled before the completion is delivered, and the demand the downstream returns
    /// for it is requested from that subscription, although the upstream has completed.
    @Test(arguments: Operator.allCases)
    func theReturnedDemandIsRequestedUpstreamAlsoWhileTheCompletionIsPending(_ op: Operator) throws {
        let (upstream, subscriber, scheduler) = attach(op, initialDemand: .max(2), demandPerValue: .max(1))
        let subscription = try subscription(upstream)
        upstream.send(1)
        upstream.send(2)
        upstream.finish()
        op.runScheduled(on: scheduler)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completions == [.finished])
        #expect(subscription.requests == [.max(2), .max(1), .max(1)])
        #expect(subscription.cancels == 0)
    }

    /// Once the completion is pending, `cancel()` is a no-op: it neither cancels the upstream nor
    /// keeps the demand returned for a value scheduled before the completion from being requested.
    @Test(arguments: Operator.allCases)
    func aCancelOnceTheCompletionIsPendingKeepsTheReturnedDemandRequested(_ op: Operator) throws {
        let (upstream, subscriber, scheduler) = attach(op, initialDemand: .max(1), demandPerValue: .max(3))
        let subscription = try subscription(upstream)
        upstream.send(1)
        upstream.fail()
        subscriber.cancel()
        op.runScheduled(on: scheduler)
        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.failure(.oops)])
        #expect(subscription.requests == [.max(1), .max(3)])
        #expect(subscription.cancels == 0)
    }

    @Test(arguments: Operator.allCases)
    func eventsAfterTheCompletionAreIgnoredAtOnce(_ op: Operator) {
        let (upstream, subscriber, scheduler) = attach(op)
        upstream.ignoresCancel = true
        upstream.finish()
        #expect(upstream.send(2) == .none)
        upstream.fail()
        #expect(scheduler.scheduledCount == 1)
        op.runScheduled(on: scheduler)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completions == [.finished])
    }

    @Test(arguments: Operator.allCases)
    func eventsAfterACancelAreIgnoredAtOnce(_ op: Operator) {
        let (upstream, subscriber, scheduler) = attach(op)
        upstream.ignoresCancel = true
        subscriber.cancel()
        #expect(upstream.send(1) == .none)
        upstream.finish()
        #expect(scheduler.scheduledCount == 0)
        op.runScheduled(on: scheduler)
        #expect(subscriber.events.count == 1)
    }

    @Test(arguments: Operator.allCases)
    func eventsBeforeTheSubscriptionAreIgnored(_ op: Operator) throws {
        let (upstream, subscriber, scheduler) = attach(op, holdingSubscription: true)
        upstream.ignoresCancel = true
        #expect(upstream.send(1) == .none)
        upstream.finish()
        #expect(scheduler.scheduledCount == 0)
        upstream.sendSubscription()
        op.runScheduled(on: scheduler)
        #expect(subscriber.subscriptionCount == 1)
        #expect(subscriber.values.isEmpty && subscriber.completions.isEmpty)
    }

    @Test(arguments: Operator.allCases)
    func aCancelBeforeTheSubscriptionIsANoOp(_ op: Operator) throws {
        let (upstream, subscriber, _) = attach(op, holdingSubscription: true)
        let inner = try #require(upstream.subscriber as? any Subscription)
        inner.cancel()
        let late = try #require(upstream.sendSubscription())
        #expect(late.cancels == 0)
        #expect(subscriber.subscriptionCount == 1)
        #expect(late.requests == [.unlimited])
    }

    @Test(arguments: Operator.allCases)
    func requestsAreForwardedWhileSubscribedZeroIncluded(_ op: Operator) throws {
        let (upstream, subscriber, scheduler) = attach(op, initialDemand: nil)
        let subscription = try subscription(upstream)
        subscriber.request(.none)
        subscriber.request(.max(3))
        #expect(subscription.requests == [.none, .max(3)])
        upstream.finish()
        subscriber.request(.max(1))  // completion pending: not forwarded
        op.runScheduled(on: scheduler)
        subscriber.request(.max(1))
        #expect(subscription.requests == [.none, .max(3)])
    }

    @Test(arguments: Operator.allCases)
    func requestsAfterACancelAreNotForwarded(_ op: Operator) throws {
        let (upstream, subscriber, _) = attach(op, initialDemand: nil)
        let subscription = try subscription(upstream)
        subscriber.cancel()
        subscriber.request(.max(1))
        subscriber.cancel()
        #expect(subscription.requests.isEmpty)
        #expect(subscription.cancels == 1)
    }

    /// As in Combine, scheduled work holds the operator and its downstream until it has run; then
    /// the downstream is let go of (Streams releases it, where Combine keeps it for good).
    @Test(arguments: Operator.allCases)
    func scheduledWorkKeepsTheDownstreamUntilItHasRun(_ op: Operator) {
        for completes in [false, true] {
            let scheduler = TestScheduler()
            let upstream = ManualUpstream<Int, TestError>(failure: TestError.oops) { $0 }
            weak var weakSubscriber: TestSubscriber<Int, TestError>?
            do {
                let subscriber = TestSubscriber<Int, TestError>()
                weakSubscriber = subscriber
                op.apply(to: upstream, on: scheduler).subscribe(subscriber)
                upstream.send(1)
                upstream.send(2)
                if completes { upstream.finish() }
                subscriber.cancel()
            }
            #expect(weakSubscriber != nil, "completes: \(completes)")
            op.runScheduled(on: scheduler)
            #expect(weakSubscriber == nil, "completes: \(completes)")
        }
    }

    @Test(arguments: Operator.allCases)
    func aCancelWithNothingScheduledLetsGoAtOnce(_ op: Operator) {
        let scheduler = TestScheduler()
        let upstream = ManualUpstream<Int, TestError>(failure: TestError.oops) { $0 }
        weak var weakSubscriber: TestSubscriber<Int, TestError>?
        do {
            let subscriber = TestSubscriber<Int, TestError>()
            weakSubscriber = subscriber
            op.apply(to: upstream, on: scheduler).subscribe(subscriber)
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
    }

    /// delay reads `now` for every event: each arrives `interval` after its own arrival.
    @Test func delayMeasuresEachEventFromItsArrival() {
        let scheduler = TestScheduler()
        let upstream = ManualUpstream<Int, TestError>(failure: TestError.oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance(by: .milliseconds(500))
        upstream.send(2)
        scheduler.advance(by: .milliseconds(500))
        #expect(subscriber.values == [1])
        upstream.finish()
        scheduler.advance(by: .milliseconds(500))
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completions.isEmpty)
        scheduler.advance(by: .milliseconds(500))
        #expect(subscriber.completions == [.finished])
    }
}

/// The state machine behind receive(on:) and delay, driven directly.
@Suite("RescheduledStateMachine")
struct RescheduledStateMachineTests {
    typealias Machine = RescheduledStateMachine<TestSubscriber<Int, Never>>

    private func subscribed() -> (Machine, RecordingSubscription) {
        var machine = Machine(downstream: TestSubscriber())
        let upstream = RecordingSubscription()
        let handedDown = machine.receiveSubscription(upstream)
        #expect(handedDown != nil)
        return (machine, upstream)
    }

    private func value(_ delivery: Machine.Delivery?) -> Int? {
        if case .value(let input, _) = delivery { input } else { nil }
    }

    @Test func awaitingIgnoresEverythingButTheSubscription() {
        var machine = Machine(downstream: TestSubscriber())
        let scheduled = machine.receive(1)
        #expect(!scheduled)
        let completing = machine.receive(completion: .finished)
        #expect(!completing)
        let forwardedTo = machine.request()
        #expect(forwardedTo == nil)
        let cancelled = machine.cancel()
        #expect(cancelled == nil)
        guard case .awaitingSubscription = machine.phase else { Issue.record("left awaitingSubscription"); return }
        let handedDown = machine.receiveSubscription(RecordingSubscription())
        #expect(handedDown != nil)
        let handedDown2 = machine.receiveSubscription(RecordingSubscription())
        #expect(handedDown2 == nil)
    }

    @Test func eachRunActionDeliversTheOldestEventThenTheCompletion() {
        var (machine, upstream) = subscribed()
        let scheduled = machine.receive(1)
        let scheduled2 = machine.receive(2)
        #expect(scheduled && scheduled2)
        let completing = machine.receive(completion: .finished)
        #expect(completing)
        guard case .completing = machine.phase else { Issue.record("not completing"); return }
        let scheduled3 = machine.receive(3)
        #expect(!scheduled3)
        let completing2 = machine.receive(completion: .finished)
        #expect(!completing2)
        let cancelled = machine.cancel()
        #expect(cancelled == nil)
        guard case .deliver(let first) = machine.actionRan() else { Issue.record("nothing to deliver"); return }
        #expect(value(first) == 1)
        let afterFirst = machine.delivered(.max(1))
        #expect(afterFirst.request === upstream)  // completing: still asked, as in Combine
        #expect(afterFirst.next == nil)
        guard case .deliver(let second) = machine.actionRan() else { Issue.record("nothing to deliver"); return }
        #expect(value(second) == 2)
        let after = machine.delivered(.none)
        #expect(after.next == nil)
        guard case .deliver(.completion(.finished, _)) = machine.actionRan() else { Issue.record("no completion"); return }
        guard case .terminated = machine.phase else { Issue.record("not terminated"); return }
        let after2 = machine.delivered(.none)
        #expect(after2.next == nil)
        #expect(!machine.delivering)
    }

    @Test func anActionThatRunsDuringADeliveryLeavesItsEventToIt() {
        var (machine, upstream) = subscribed()
        let scheduled = machine.receive(1)
        let scheduled2 = machine.receive(2)
        #expect(scheduled && scheduled2)
        guard case .deliver(let first) = machine.actionRan() else { Issue.record("nothing to deliver"); return }
        #expect(value(first) == 1)
        guard case .none = machine.actionRan() else { Issue.record("delivered twice at once"); return }
        let after = machine.delivered(.max(2))
        #expect(after.request === upstream)
        #expect(value(after.next) == 2)
        let last = machine.delivered(.none)
        #expect(last.next == nil)
        #expect(!machine.delivering)
    }

    @Test func aCancelDropsTheQueueAndKeepsTheDownstreamUntilThePendingActionsHaveRun() throws {
        var (machine, upstream) = subscribed()
        let scheduled = machine.receive(1)
        let scheduled2 = machine.receive(2)
        #expect(scheduled && scheduled2)
        let cancel = machine.cancel()
        let cancelled = try #require(cancel)
        #expect(cancelled.upstream === upstream)
        #expect(cancelled.downstream == nil)
        #expect(cancelled.dropped.count == 2)
        guard case .cancelled(_, pending: 2) = machine.phase else { Issue.record("not cancelled(2)"); return }
        let scheduled3 = machine.receive(3)
        #expect(!scheduled3)
        let forwardedTo = machine.request()
        #expect(forwardedTo == nil)
        let cancelled2 = machine.cancel()
        #expect(cancelled2 == nil)
        guard case .none = machine.actionRan() else { Issue.record("released too early"); return }
        guard case .release = machine.actionRan() else { Issue.record("not released"); return }
        guard case .terminated = machine.phase else { Issue.record("not terminated"); return }
    }

    @Test func aCancelWithNoPendingActionLetsGoAtOnce() throws {
        var (machine, _) = subscribed()
        let scheduled = machine.receive(1)
        #expect(scheduled)
        guard case .deliver = machine.actionRan() else { Issue.record("nothing to deliver"); return }
        // Cancelled while the value is being delivered: its demand is not requested.
        let cancel = machine.cancel()
        let cancelled = try #require(cancel)
        #expect(cancelled.downstream != nil)
        let after = machine.delivered(.max(1))
        #expect(after.request == nil && after.next == nil)
        guard case .terminated = machine.phase else { Issue.record("not terminated"); return }
    }

    @Test func requestsGoUpstreamOnlyWhileSubscribed() {
        var (machine, upstream) = subscribed()
        let forwardedTo = machine.request()
        #expect(forwardedTo === upstream)
        _ = machine.receive(completion: .finished)
        let forwardedTo2 = machine.request()
        #expect(forwardedTo2 == nil)
    }
}

private func === (lhs: (any Subscription)?, rhs: RecordingSubscription) -> Bool {
    (lhs as AnyObject?) === rhs
}
