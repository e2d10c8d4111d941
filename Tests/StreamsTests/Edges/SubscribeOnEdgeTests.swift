@testable import Streams
import StreamsTesting
import Testing

/// subscribe(on:) at the edges, on a virtual-time scheduler.
@Suite("subscribe(on:) at the edges")
struct SubscribeOnEdgeTests {
    private func attach(
        initialDemand: Subscribers.Demand? = nil, holdingSubscription: Bool = false
    ) -> (ManualUpstream<Int, TestError>, TestSubscriber<Int, TestError>, TestScheduler) {
        let scheduler = TestScheduler()
        let upstream = ManualUpstream<Int, TestError>(failure: TestError.oops) { $0 }
        upstream.holdsSubscription = holdingSubscription
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: initialDemand)
        upstream.subscribe(on: scheduler).subscribe(subscriber)
        return (upstream, subscriber, scheduler)
    }

    @Test func theUpstreamIsSubscribedInsideAScheduledAction() {
        let (upstream, subscriber, scheduler) = attach()
        #expect(upstream.subscriber == nil)
        #expect(scheduler.scheduledCount == 1)
        scheduler.advance()
        #expect(upstream.subscriber != nil)
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func requestsReachTheUpstreamOnlyWhenTheirActionRunsZeroIncluded() throws {
        let (upstream, subscriber, scheduler) = attach()
        scheduler.advance()
        let subscription = try #require(upstream.subscriptions.last)
        subscriber.request(.max(2))
        subscriber.request(.none)
        #expect(subscription.requests.isEmpty)
        #expect(scheduler.scheduledCount == 2)
        scheduler.advance()
        #expect(subscription.requests == [.max(2), .none])
    }

    @Test func theCancelReachesTheUpstreamWhenItsActionRuns() throws {
        let (upstream, subscriber, scheduler) = attach()
        scheduler.advance()
        let subscription = try #require(upstream.subscriptions.last)
        subscriber.cancel()
        subscriber.cancel()
        #expect(subscription.cancels == 0)
        #expect(scheduler.scheduledCount == 1)
        scheduler.advance()
        #expect(subscription.cancels == 1)
    }

    /// Combine ignores values, completions and new requests from the moment of `cancel()`;
    /// requests scheduled before it still reach the upstream, ahead of the cancel.
    @Test func afterACancelEventsAndNewRequestsAreIgnored() throws {
        let (upstream, subscriber, scheduler) = attach()
        scheduler.advance()
        let subscription = try #require(upstream.subscriptions.last)
        upstream.ignoresCancel = true
        subscriber.request(.max(1))
        subscriber.cancel()
        subscriber.request(.max(5))
        #expect(upstream.send(1) == .none)
        upstream.finish()
        scheduler.advance()
        #expect(subscription.requests == [.max(1)])
        #expect(subscription.cancels == 1)
        #expect(subscriber.values.isEmpty && subscriber.completions.isEmpty)
    }

    @Test func valuesAndTheCompletionGoStraightDownstream() {
        let (upstream, subscriber, scheduler) = attach(initialDemand: .unlimited)
        scheduler.advance()
        #expect(upstream.send(1) == .none)
        upstream.finish()
        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.finished])
    }

    @Test func aValueBeforeTheSubscriptionIsIgnored() {
        let (upstream, subscriber, scheduler) = attach(holdingSubscription: true)
        scheduler.advance()
        #expect(upstream.send(1) == .none)
        #expect(subscriber.events.isEmpty)
        upstream.sendSubscription()
        #expect(subscriber.subscriptionCount == 1 && subscriber.values.isEmpty)
    }

    @Test func aCancelBeforeTheSubscriptionIsANoOp() throws {
        let (upstream, subscriber, scheduler) = attach(initialDemand: .max(1), holdingSubscription: true)
        scheduler.advance()
        let inner = try #require(upstream.subscriber as? any Subscription)
        inner.cancel()
        #expect(scheduler.scheduledCount == 0)
        let late = try #require(upstream.sendSubscription())
        scheduler.advance()
        #expect(late.cancels == 0)
        #expect(subscriber.subscriptionCount == 1)
        #expect(late.requests == [.max(1)])
    }

    /// The scheduled subscribe and request hold the operator: with nothing else holding the
    /// pipeline (the subscriber keeps nothing, the upstream keeps nothing), the request still
    /// reaches the upstream, and then everything is let go of.
    @Test func aScheduledRequestKeepsThePipelineUntilItHasRun() {
        let subscription = RecordingSubscription()
        weak var weakSubscriber: ForgetfulSubscriber<Int, Never>?
        let scheduler = TestScheduler()
        do {
            let subscriber = ForgetfulSubscriber<Int, Never>(events: Log())
            weakSubscriber = subscriber
            SubscriptionOnly(subscription).subscribe(on: scheduler).subscribe(subscriber)
        }
        scheduler.advance()
        #expect(subscription.requests == [.unlimited])
        #expect(weakSubscriber == nil)
    }

    /// On a synchronous scheduler, a request made from inside the upstream's own
    /// `request` traps in Combine. Streams makes it once the outer call has returned, so the
    /// upstream is never entered twice and every value arrives.
    @Test func aReentrantRequestOnASynchronousSchedulerWaitsForTheOuterCall() {
        let upstream = CountingUpstream(count: 5)
        let subscriber = OneAtATimeSubscriber(cancelOn: nil)
        upstream.subscribe(on: ImmediateScheduler.shared).subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3, 4, 5])
        #expect(subscriber.finished)
        #expect(upstream.deepestCall == 1)
        #expect(upstream.log == Array(repeating: .request(.max(1)), count: 5))
    }

    /// A cancel made from inside the upstream's `request` on a synchronous scheduler reaches the
    /// upstream once that call has returned, after the request made before it.
    @Test func aReentrantCancelWaitsForTheOuterCall() {
        let upstream = CountingUpstream(count: 5)
        let subscriber = OneAtATimeSubscriber(cancelOn: 2)
        upstream.subscribe(on: ImmediateScheduler.shared).subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
        #expect(!subscriber.finished)
        #expect(upstream.deepestCall == 1)
        #expect(upstream.log == [.request(.max(1)), .request(.max(1)), .cancel])
    }
}

/// Hands its subscriber one subscription and keeps nothing.
private struct SubscriptionOnly<Output>: Publisher {
    typealias Failure = Never
    let subscription: any Subscription

    init(_ subscription: any Subscription) { self.subscription = subscription }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(subscription: subscription)
    }
}

/// Publishes 1...count, each value synchronously from inside `request`, and records how deeply
/// its `request` and `cancel` were nested.
private final class CountingUpstream: Publisher, Subscription, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never

    let count: Int
    private var next = 1
    private var depth = 0
    private var downstream: AnySubscriber<Int, Never>?
    private(set) var deepestCall = 0
    private(set) var log: [Call] = []

    enum Call: Equatable {
        case request(Subscribers.Demand)
        case cancel
    }

    init(count: Int) { self.count = count }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        downstream = AnySubscriber(subscriber)
        subscriber.receive(subscription: self)
    }

    func request(_ demand: Subscribers.Demand) {
        log.append(.request(demand))
        depth += 1
        deepestCall = Swift.max(deepestCall, depth)
        defer { depth -= 1 }
        var remaining = demand
        while remaining > 0, next <= count, let downstream {
            remaining -= 1
            next += 1
            remaining += downstream.receive(next - 1)
        }
        if next > count, let downstream {
            self.downstream = nil
            downstream.receive(completion: .finished)
        }
    }

    func cancel() {
        log.append(.cancel)
        depth += 1
        deepestCall = Swift.max(deepestCall, depth)
        depth -= 1
        downstream = nil
    }
}

/// Asks for one value at a time with `request` from inside `receive(_:)` (not with the returned
/// demand), and cancels instead on the value `cancelOn`.
private final class OneAtATimeSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    let cancelOn: Int?
    private var subscription: (any Subscription)?
    private(set) var values: [Int] = []
    private(set) var finished = false

    init(cancelOn: Int?) { self.cancelOn = cancelOn }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.max(1))
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        values.append(input)
        if input == cancelOn {
            subscription?.cancel()
            subscription = nil
        } else {
            subscription?.request(.max(1))
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        finished = true
        subscription = nil
    }
}

/// The state machine behind subscribe(on:), driven directly.
@Suite("SubscribeOnStateMachine")
struct SubscribeOnStateMachineTests {
    typealias Machine = SubscribeOnStateMachine<TestSubscriber<Int, Never>>

    private func subscribed() -> (Machine, RecordingSubscription) {
        var machine = Machine(downstream: TestSubscriber())
        let upstream = RecordingSubscription()
        let handedDown = machine.receiveSubscription(upstream)
        #expect(handedDown != nil)
        return (machine, upstream)
    }

    private func isRequest(_ call: Machine.UpstreamCall?, _ demand: Subscribers.Demand) -> Bool {
        if case .request(_, let made) = call { made == demand } else { false }
    }

    private func isCancel(_ call: Machine.UpstreamCall?) -> Bool {
        if case .cancel = call { true } else { false }
    }

    @Test func awaitingIgnoresEverythingButTheSubscription() {
        var machine = Machine(downstream: TestSubscriber())
        let downstream = machine.receiveValue()
        #expect(downstream == nil)
        let completing = machine.receiveCompletion()
        #expect(completing == nil)
        let requestScheduled = machine.request()
        #expect(!requestScheduled)
        let cancelScheduled = machine.cancel()
        #expect(!cancelScheduled)
        let handedDown = machine.receiveSubscription(RecordingSubscription())
        #expect(handedDown != nil)
        let handedDown2 = machine.receiveSubscription(RecordingSubscription())
        #expect(handedDown2 == nil)
    }

    @Test func callsMadeDuringACallWaitForItInOrder() {
        var (machine, _) = subscribed()
        let requestScheduled = machine.request()
        #expect(requestScheduled)
        let call = machine.requestRan(.max(1))
        #expect(isRequest(call, .max(1)))
        // Re-entering: both requests and the cancel wait for the call in progress.
        let call2 = machine.requestRan(.max(2))
        #expect(call2 == nil)
        let call3 = machine.requestRan(.max(3))
        #expect(call3 == nil)
        let cancelScheduled = machine.cancel()
        #expect(cancelScheduled)
        let call4 = machine.cancelRan()
        #expect(call4 == nil)
        let next = machine.callReturned()
        #expect(isRequest(next, .max(5)))
        let next2 = machine.callReturned()
        #expect(isCancel(next2))
        guard case .terminated = machine.phase else { Issue.record("not terminated"); return }
        let next3 = machine.callReturned()
        #expect(next3 == nil)
        guard case .idle = machine.call else { Issue.record("still calling"); return }
        let call5 = machine.requestRan(.max(1))
        #expect(call5 == nil)
    }

    /// A documented difference: a zero request that re-enters during a call adds nothing, so
    /// nothing is left to pass on.
    @Test func aReentrantZeroRequestIsNotPassedOn() {
        var (machine, _) = subscribed()
        let outer = machine.requestRan(.max(1))
        #expect(isRequest(outer, .max(1)))
        let inner = machine.requestRan(.none)
        #expect(inner == nil)
        let next = machine.callReturned()
        #expect(next == nil)
    }

    @Test func cancellingKeepsScheduledRequestsAndIgnoresNewEvents() {
        var (machine, _) = subscribed()
        let cancelScheduled = machine.cancel()
        #expect(cancelScheduled)
        let cancelScheduled2 = machine.cancel()
        #expect(!cancelScheduled2)
        let requestScheduled = machine.request()
        #expect(!requestScheduled)
        let downstream = machine.receiveValue()
        #expect(downstream == nil)
        let completing = machine.receiveCompletion()
        #expect(completing == nil)
        let call = machine.requestRan(.max(1))
        #expect(isRequest(call, .max(1)))
        let next = machine.callReturned()
        #expect(next == nil)
        let call2 = machine.cancelRan()
        #expect(isCancel(call2))
        let next2 = machine.callReturned()
        #expect(next2 == nil)
        guard case .terminated = machine.phase else { Issue.record("not terminated"); return }
    }

    @Test func theCompletionTerminatesAndDropsLaterRequests() {
        var (machine, upstream) = subscribed()
        let downstream = machine.receiveValue()
        #expect(downstream != nil)
        let completing = machine.receiveCompletion()
        #expect((completing?.upstream as AnyObject?) === upstream)
        let downstream2 = machine.receiveValue()
        #expect(downstream2 == nil)
        let call = machine.requestRan(.max(1))
        #expect(call == nil)
        let cancelScheduled = machine.cancel()
        #expect(!cancelScheduled)
    }
}
