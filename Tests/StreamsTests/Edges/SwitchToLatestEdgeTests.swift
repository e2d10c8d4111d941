@testable import Streams
import StreamsTesting
import Testing

/// `switchToLatest` at the edges: Combine's structure, demand accounting, traps and endings.
@Suite("switchToLatest at the edges")
struct SwitchToLatestEdgeTests {
    /// A hand-driven outer publisher of child probes, switched into `subscriber`.
    final class Rig {
        let log = Log<String>()
        var children: [ChildProbe] = []
        let outer: ManualUpstream<ChildProbe, TestError>
        let subscriber: TestSubscriber<Int, TestError>

        init(subscriber: TestSubscriber<Int, TestError>, outerFailure: TestError = .other) {
            self.subscriber = subscriber
            var make: (Int) -> ChildProbe = { _ in ChildProbe() }
            outer = ManualUpstream(failure: outerFailure) { make($0) }
            make = { [unowned self] in children[$0] }
            outer.switchToLatest().subscribe(subscriber)
        }

        /// Sends a new child (holding its subscription back if asked).
        @discardableResult
        func child(holdingSubscription: Bool = false) -> ChildProbe {
            let child = ChildProbe("\(children.count)", log: log)
            child.holdsSubscription = holdingSubscription
            children.append(child)
            outer.send(children.count - 1)
            return child
        }

        var outerSubscription: ManualSubscription? { outer.subscriptions.first }
    }

    @Test func oneObjectIsTheUpstreamsSubscriberAndTheDownstreamsSubscription() throws {
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        let upstream = ManualUpstream<Just<Int>, TestError>(failure: .oops) { Just($0) }
        var subscriptionsWhenSubscribing: Int?
        Deferred { () -> ManualUpstream<Just<Int>, TestError> in
            subscriptionsWhenSubscribing = subscriber.subscriptionCount
            return upstream
        }
        .map { $0.setFailureType(to: TestError.self) }
        .switchToLatest()
        .subscribe(subscriber)
        #expect(subscriptionsWhenSubscribing == 1)
        #expect(upstream.subscriptions.map(\.requests) == [[.unlimited]])
        let subscription = try #require(subscriber.subscription)
        let rig = Rig(subscriber: TestSubscriber(initialDemand: nil))
        #expect((rig.outer.subscriber as? AnyObject) === (rig.subscriber.subscription as? AnyObject))
        #expect(String(describing: subscription) == "SwitchToLatest")
        #expect(Mirror(reflecting: subscription).children.isEmpty)
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "SwitchToLatest")
        #expect(!(subscription is any CustomDebugStringConvertible))
    }

    /// As in Combine: "SwitchToLatest", also in playgrounds; one mirror child, the
    /// combineIdentifier of the object the upstream and the downstream see; a type and an
    /// identifier of its own; not a subscription; no debug description.
    @Test func theSubscriberOfEachChildShowsTheParentSubscription() throws {
        let rig = Rig(subscriber: TestSubscriber(initialDemand: .unlimited))
        let link = try #require(rig.child().link)
        let subscription = try #require(rig.subscriber.subscription)
        #expect(String(describing: link) == "SwitchToLatest")
        let children = Array(Mirror(reflecting: link).children)
        #expect(children.map(\.label) == ["parentSubscription"])
        #expect(children.first?.value as? CombineIdentifier == subscription.combineIdentifier)
        #expect((link as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "SwitchToLatest")
        #expect(!(link is any CustomDebugStringConvertible))
        #expect(!(link is any Subscription))
        #expect(type(of: link) != type(of: subscription))
        let identifier = try #require((link as? any CustomCombineIdentifierConvertible)?.combineIdentifier)
        #expect(identifier != subscription.combineIdentifier)
    }

    @Test func aNewChildCancelsTheCurrentOneFirstAndTheOldOnesEventsAreIgnored() {
        let rig = Rig(subscriber: TestSubscriber(initialDemand: .unlimited))
        let first = rig.child()
        let second = rig.child()
        #expect(rig.log.items == ["subscribe 0", "cancel 0", "subscribe 1"])
        #expect(first.send(1) == .none)
        first.fail()
        second.send(2)
        #expect(rig.subscriber.values == [2])
        #expect(rig.subscriber.completion == nil)
    }

    @Test func aChildIsAskedForTheAccumulatedDemandOnlyWhenThereIsSome() {
        let rig = Rig(subscriber: TestSubscriber(initialDemand: nil))
        let idle = rig.child()
        #expect(idle.requests.isEmpty)
        rig.subscriber.request(.max(2))
        rig.subscriber.request(.max(3))
        #expect(idle.requests == [.max(2), .max(3)])
        let next = rig.child(holdingSubscription: true)
        rig.outer.finish()
        next.sendSubscription()
        #expect(next.requests == [.max(5)])
    }

    @Test func onlyTheCurrentChildsFirstSubscriptionIsAccepted() {
        let rig = Rig(subscriber: TestSubscriber(initialDemand: .max(1)))
        let old = rig.child(holdingSubscription: true)
        let current = rig.child()
        old.sendSubscription()
        #expect(old.cancels == 1)
        #expect(old.requests.isEmpty)
        current.sendSubscription()
        #expect(current.cancels == 1)
        #expect(current.requests == [.max(1)])
    }

    /// Combine accepts a subscription that reaches a child's subscriber after that child
    /// finished, and asks it for the outstanding demand; Streams cancels it: the child has
    /// completed, nothing may follow.
    @Test func aSubscriptionReachingAFinishedChildIsCancelled() {
        let rig = Rig(subscriber: TestSubscriber(initialDemand: .max(3)))
        let child = rig.child()
        #expect(child.requests == [.max(3)])
        child.finish()
        child.sendSubscription()
        #expect(child.cancels == 1)
        #expect(child.requests == [.max(3)])
        #expect(rig.subscriber.completion == nil)
    }

    @Test func aValueReturnsTheDownstreamsDemandInsteadOfRequestingIt() {
        let rig = Rig(subscriber: TestSubscriber(initialDemand: .max(1), demandPerValue: .max(2)))
        let child = rig.child()
        #expect(child.send(1) == .max(2))
        #expect(child.send(2) == .max(2))
        #expect(child.send(3) == .max(2))
        #expect(child.requests == [.max(1)])
        #expect(rig.subscriber.values == [1, 2, 3])
    }

    @Test func aValueBeforeItsSubscriptionIsDeliveredTheSameWay() {
        let rig = Rig(subscriber: TestSubscriber(initialDemand: .max(1)))
        let child = rig.child(holdingSubscription: true)
        #expect(child.send(1) == .none)
        #expect(rig.subscriber.values == [1])
        child.sendSubscription()
        #expect(child.requests.isEmpty)
    }

    @Test func aValueWithoutDemandTraps() async {
        await #expect(processExitsWith: .failure) {
            let rig = Rig(subscriber: TestSubscriber(initialDemand: .max(1)))
            let child = rig.child()
            child.send(1)
            child.send(2)
        }
    }

    @Test func aCompletionBeforeTheChildsSubscriptionTraps() async {
        await #expect(processExitsWith: .failure) {
            Rig(subscriber: TestSubscriber()).child(holdingSubscription: true).finish()
        }
    }

    @Test func requestingNoneTraps() async {
        await #expect(processExitsWith: .failure) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
            Just(Just(1)).switchToLatest().subscribe(subscriber)
            subscriber.request(.none)
        }
    }

    @Test func aFinishedChildFinishesTheStreamOnlyAfterTheOuterFinished() {
        let rig = Rig(subscriber: TestSubscriber())
        rig.child().finish()
        #expect(rig.subscriber.completion == nil)
        let last = rig.child()
        rig.outer.finish()
        #expect(rig.subscriber.completion == nil)
        last.finish()
        last.finish()
        #expect(rig.subscriber.completions == [.finished])
    }

    @Test func theOuterFinishesTheStreamAtOnceOnlyWithoutAnActiveOrPendingChild() {
        let idle = Rig(subscriber: TestSubscriber())
        idle.outer.finish()
        #expect(idle.subscriber.completions == [.finished])
        let pending = Rig(subscriber: TestSubscriber())
        let child = pending.child(holdingSubscription: true)
        pending.outer.finish()
        #expect(pending.subscriber.completion == nil)
        child.sendSubscription()
        child.finish()
        #expect(pending.subscriber.completions == [.finished])
    }

    @Test func aFailingChildCancelsTheOuterButNotItself() {
        let rig = Rig(subscriber: TestSubscriber())
        let child = rig.child()
        child.fail()
        #expect(rig.outerSubscription?.cancels == 1)
        #expect(child.cancels == 0)
        #expect(rig.subscriber.completions == [.failure(.oops)])
    }

    @Test func aFailingOuterCancelsTheChildButNotItself() {
        let rig = Rig(subscriber: TestSubscriber())
        let child = rig.child()
        rig.outer.fail()
        #expect(child.cancels == 1)
        #expect(rig.outerSubscription?.cancels == 0)
        #expect(rig.subscriber.completions == [.failure(.other)])
    }

    /// Combine forwards every outer completion and still delivers the cancelled
    /// child's values after an outer failure; Streams completes once and sends nothing after.
    @Test func nothingArrivesAfterTheCompletion() {
        let rig = Rig(subscriber: TestSubscriber())
        rig.outer.ignoresCancel = true
        let child = rig.child()
        rig.outer.fail()
        rig.outer.finish()
        rig.outer.fail()
        #expect(child.send(1) == .none)
        #expect(rig.subscriber.events == [.subscription("SwitchToLatest"), .completion(.failure(.other))])
    }

    @Test func afterCancelEventsAreIgnoredWithoutTrapping() {
        let rig = Rig(subscriber: TestSubscriber(initialDemand: nil))
        rig.outer.ignoresCancel = true
        let child = rig.child()
        rig.subscriber.cancel()
        #expect(child.cancels == 1)
        #expect(rig.outerSubscription?.cancels == 1)
        #expect(child.send(1) == .none)
        child.finish()
        rig.outer.send(0)
        rig.outer.finish()
        #expect(rig.subscriber.events == [.subscription("SwitchToLatest")])
    }

    @Test func cancelCancelsTheCurrentChildFirstThenTheOuterSubscriptionOnce() throws {
        let rig = Rig(subscriber: TestSubscriber(initialDemand: .max(42)))
        let child = rig.child()
        let outer = try #require(rig.outerSubscription)
        let release = outer.onCancel
        outer.onCancel = { [log = rig.log] in
            log.append("cancel outer")
            release?()
        }
        let subscription = try #require(rig.subscriber.subscription)
        subscription.cancel()
        subscription.cancel()
        #expect(rig.log.items == ["subscribe 0", "cancel 0", "cancel outer"])
        #expect(child.requests == [.max(42)])
        #expect(outer.requests == [.unlimited])
    }

    @Test func aValueSentReentrantlyFromInsideTheDownstreamIsDeliveredNext() {
        var child: ChildProbe?
        var sent = false
        let subscriber = TestSubscriber<Int, TestError>(
            initialDemand: .max(2),
            onValue: { _ in
                guard !sent else { return }
                sent = true
                child?.send(2)
            })
        let rig = Rig(subscriber: subscriber)
        child = rig.child()
        child?.send(1)
        #expect(subscriber.values == [1, 2])
    }
}

/// The ``SwitchToLatestStateMachine`` by itself.
@Suite("switchToLatest's state machine")
struct SwitchToLatestStateMachineTests {
    typealias Machine = SwitchToLatestStateMachine<Int, TestError>

    @Test func movesThroughItsPhases() {
        var machine = Machine(resources: Tracked())
        guard case .awaitingSubscription = machine.phase else { Issue.record("\(machine.phase)"); return }
        let accepted = machine.upstreamSubscribed(RecordingSubscription())
        #expect(accepted)
        guard case .subscribed = machine.phase else { Issue.record("\(machine.phase)"); return }
        guard case .subscribe(let firstGeneration, _) = machine.upstreamSentChild() else { Issue.record("ignored"); return }
        #expect(firstGeneration == 1)
        let childDemand = machine.childSubscribed(1, RecordingSubscription())
        #expect(childDemand == Subscribers.Demand.none)
        let finishing = machine.upstreamFinished()
        #expect(finishing == nil)
        guard case .upstreamFinished = machine.phase else { Issue.record("\(machine.phase)"); return }
        guard case .end(let remains) = machine.childFinished(1) else { Issue.record("not ended"); return }
        #expect(remains.resources != nil)
        guard case .terminated = machine.phase else { Issue.record("\(machine.phase)"); return }
        #expect(machine.resources == nil)
    }

    @Test func anOlderGenerationIsIgnored() {
        var machine = Machine(resources: Tracked())
        _ = machine.upstreamSubscribed(RecordingSubscription())
        _ = machine.upstreamSentChild()
        let previous = RecordingSubscription()
        _ = machine.childSubscribed(1, previous)
        guard case .subscribe(_, let cancelled) = machine.upstreamSentChild() else { Issue.record("ignored"); return }
        #expect((cancelled.subscription as? RecordingSubscription) === previous)
        guard case .none = machine.childSentValue(1, generation: 1, thread: 1) else { Issue.record("delivered"); return }
        guard case .none = machine.childFailed(1, .failure(.oops)) else { Issue.record("failed"); return }
        #expect(machine.isLive)
    }

    @Test func cancelHandsOutTheCurrentChildBeforeTheUpstream() {
        var machine = Machine(resources: Tracked())
        let upstream = RecordingSubscription()
        let child = RecordingSubscription()
        _ = machine.upstreamSubscribed(upstream)
        _ = machine.upstreamSentChild()
        _ = machine.childSubscribed(1, child)
        let cancelled = machine.cancelled()?.cancel.map { ObjectIdentifier($0 as AnyObject) }
        #expect(cancelled == [ObjectIdentifier(child), ObjectIdentifier(upstream)])
        #expect(machine.cancelled() == nil)
    }

    @Test func aCompletionDecidedWhileAThreadDeliversIsLeftToThatThread() {
        var machine = Machine(resources: Tracked())
        _ = machine.upstreamSubscribed(RecordingSubscription())
        _ = machine.upstreamSentChild()
        _ = machine.childSubscribed(1, RecordingSubscription())
        _ = machine.requested(.max(1))
        guard case .deliver = machine.childSentValue(1, generation: 1, thread: 1) else { Issue.record("not delivered"); return }
        let failing = machine.upstreamFailed(.failure(.other))
        #expect(failing?.resources == nil)
        guard case .complete(let remains, let failure?) = machine.nextDelivery(adding: .none), failure as? TestError == .other
        else {
            Issue.record("no completion")
            return
        }
        #expect(remains.resources != nil)
        #expect(!machine.turn.isHeld)
    }
}
