import Streams
import StreamsTesting
import Testing

/// Logs when it receives its subscription, for tests of the subscribing order.
private final class OrderSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = TestError
    let log: Log<String>
    init(log: Log<String>) { self.log = log }
    func receive(subscription: any Subscription) {
        log.append("downstream")
        subscription.request(.unlimited)
    }
    func receive(_ input: Int) -> Subscribers.Demand { .none }
    func receive(completion: Subscribers.Completion<TestError>) {}
}

/// `drop(untilOutputFrom:)` and `prefix(untilOutputFrom:)` at the edges.
@Suite("drop / prefix(untilOutputFrom:) at the edges")
struct UntilOutputEdgeTests {
    struct Rig {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let trigger = ManualUpstream<Int, TestError>(failure: .other) { $0 }
        let subscriber: TestSubscriber<Int, TestError>

        init(initialDemand: Subscribers.Demand? = .unlimited, demandPerValue: Subscribers.Demand = .none) {
            subscriber = TestSubscriber(initialDemand: initialDemand, demandPerValue: demandPerValue)
        }

        func drop() { upstream.drop(untilOutputFrom: trigger).subscribe(subscriber) }
        func prefix() { upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber) }
        var upstreamSubscription: ManualSubscription { upstream.subscriptions[0] }
        var triggerSubscription: ManualSubscription { trigger.subscriptions[0] }
    }

    // MARK: drop(untilOutputFrom:)

    @Test func dropHandsItsSubscriptionDownFirstThenSubscribesTheTriggerThenTheUpstream() {
        let log = Log<String>()
        let upstream = Deferred {
            log.append("upstream"); return Empty<Int, TestError>(completeImmediately: false)
        }
        let trigger = Deferred {
            log.append("trigger"); return Empty<Int, TestError>(completeImmediately: false)
        }
        upstream.drop(untilOutputFrom: trigger).subscribe(OrderSubscriber(log: log))
        #expect(log.items == ["downstream", "trigger", "upstream"])
    }

    @Test func dropDescribesBothSidesAsOneInner() throws {
        let rig = Rig()
        rig.drop()
        let inner = try #require(rig.upstream.subscriber as? any Subscriber)
        let link = try #require(rig.trigger.subscriber as? any Subscriber)
        let handedDown = try #require(rig.subscriber.subscription)
        let same = (inner as AnyObject) === (handedDown as AnyObject)
        #expect(same)
        #expect(link.combineIdentifier == inner.combineIdentifier)
        for side in [inner as Any, link as Any] {
            #expect(String(describing: side) == "DropUntilOutput")
            #expect((side as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "DropUntilOutput")
            #expect(Mirror(reflecting: side).children.isEmpty)
        }
    }

    @Test func dropAddsUpRequestsUntilTheUpstreamSubscriptionArrives() {
        let rig = Rig(initialDemand: .max(2))
        rig.upstream.holdsSubscription = true
        rig.drop()
        rig.subscriber.request(.max(3))
        let late = rig.upstream.sendSubscription()
        #expect(late?.requests == [.max(5)])
        rig.subscriber.request(.none)
        #expect(late?.requests == [.max(5), .none])
    }

    /// A dropped value asks for a replacement and takes no demand (Combine lets it use the
    /// demand up); the trigger is cancelled after its value (Combine leaves it running).
    @Test func dropReplenishesDroppedValuesAndCancelsTheTriggerAfterItsValue() {
        let rig = Rig(initialDemand: .max(2))
        rig.drop()
        #expect(rig.triggerSubscription.requests == [.max(1)])
        #expect(rig.upstream.send(1) == .max(1))
        #expect(rig.upstream.send(2) == .max(1))
        #expect(rig.trigger.send(0) == .none)
        #expect(rig.triggerSubscription.cancels == 1)
        rig.upstream.send(3)
        rig.upstream.send(4)
        #expect(rig.subscriber.values == [3, 4])
    }

    @Test func dropPassesTheDownstreamsDemandBackAndTheUpstreamCompletionOnce() {
        let rig = Rig(initialDemand: .max(1), demandPerValue: .max(2))
        rig.upstream.ignoresCancel = true
        rig.drop()
        rig.trigger.send(0)
        #expect(rig.upstream.send(1) == .max(2))
        rig.upstream.finish()
        rig.upstream.finish()
        #expect(rig.subscriber.completions == [.finished])
    }

    @Test(arguments: [false, true])
    func dropEndsWhenTheTriggerCompletesWithoutAValue(failing: Bool) {
        let rig = Rig()
        rig.trigger.ignoresCancel = true
        rig.drop()
        if failing { rig.trigger.fail() } else { rig.trigger.finish() }
        #expect(rig.upstreamSubscription.cancels == 1)
        #expect(rig.subscriber.completions == [failing ? .failure(.other) : .finished])
        // Combine forwards a repeated trigger completion again; Streams sends one.
        rig.trigger.finish()
        #expect(rig.subscriber.completions.count == 1)
    }

    /// The trigger completing before its value ends the operator, not only its output: an
    /// upstream subscription that arrives afterwards is cancelled and asked for nothing, and
    /// its events are ignored (Combine keeps it, asks it for the demand requested so far and
    /// goes on dropping its values).
    @Test func dropCancelsAnUpstreamSubscriptionThatArrivesAfterTheTriggerCompleted() {
        let rig = Rig(initialDemand: .max(10))
        rig.upstream.holdsSubscription = true
        rig.upstream.ignoresCancel = true
        rig.drop()
        rig.subscriber.request(.max(4))
        rig.trigger.finish()
        #expect(rig.subscriber.completions == [.finished])
        let late = rig.upstream.sendSubscription()
        #expect(late?.cancels == 1)
        #expect(late?.requests == [])
        rig.subscriber.request(.max(1))
        #expect(late?.requests == [])
        #expect(rig.upstream.send(1) == .none)
        rig.upstream.finish()
        #expect(rig.subscriber.values == [])
        #expect(rig.subscriber.completions == [.finished])
    }

    @Test func dropIgnoresTheTriggersCompletionAfterItsValue() {
        let rig = Rig()
        rig.trigger.ignoresCancel = true
        rig.drop()
        rig.trigger.send(0)
        rig.trigger.fail()
        rig.upstream.send(1)
        #expect(rig.subscriber.values == [1])
        #expect(rig.subscriber.completions == [])
    }

    @Test func dropForwardsAnUpstreamCompletionBeforeTheSubscription() {
        let rig = Rig()
        rig.upstream.holdsSubscription = true
        rig.drop()
        rig.upstream.finish()
        #expect(rig.subscriber.completions == [.finished])
        #expect(rig.triggerSubscription.cancels == 1)
    }

    @Test func dropCancelsBothSidesAndLateSubscriptions() {
        let rig = Rig()
        rig.upstream.holdsSubscription = true
        rig.trigger.ignoresCancel = true
        rig.drop()
        rig.subscriber.cancel()
        #expect(rig.triggerSubscription.cancels == 1)
        #expect(rig.upstream.sendSubscription()?.cancels == 1)
        rig.trigger.finish()
        #expect(rig.subscriber.completions == [])
    }

    /// Combine traps on a value after a cancel (its demand is gone); Streams ignores it.
    @Test func dropIgnoresAValueAfterACancel() {
        let rig = Rig(initialDemand: .max(1))
        rig.upstream.ignoresCancel = true
        rig.drop()
        rig.trigger.send(0)
        rig.upstream.send(1)
        rig.subscriber.cancel()
        #expect(rig.upstream.send(2) == .none)
        #expect(rig.subscriber.values == [1])
    }

    @Test func dropTrapsOnAValueBeforeTheSubscription() async {
        let trap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
            upstream.holdsSubscription = true
            upstream.drop(untilOutputFrom: Empty<Int, TestError>(completeImmediately: false))
                .subscribe(TestSubscriber<Int, TestError>(initialDemand: nil))
            upstream.send(1)
        }
        MisuseTests.expectMessage("received a value without demand", in: trap)
    }

    @Test func dropTrapsOnAValueWithoutDemand() async {
        let trap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
            upstream.drop(untilOutputFrom: Just(0).setFailureType(to: TestError.self))
                .subscribe(TestSubscriber<Int, TestError>(initialDemand: .max(1)))
            upstream.send(1)
            upstream.send(2)
        }
        MisuseTests.expectMessage("received a value without demand", in: trap)
    }

    // MARK: prefix(untilOutputFrom:)

    @Test func prefixSubscribesTheTriggerFirst() {
        let log = Log<String>()
        let upstream = Deferred {
            log.append("upstream"); return Empty<Int, TestError>(completeImmediately: false)
        }
        let trigger = Deferred {
            log.append("trigger"); return Empty<Int, TestError>(completeImmediately: false)
        }
        upstream.prefix(untilOutputFrom: trigger).subscribe(OrderSubscriber(log: log))
        #expect(log.items == ["trigger", "upstream", "downstream"])
    }

    @Test func prefixIsNotReflectable() throws {
        let rig = Rig()
        rig.prefix()
        let inner = try #require(rig.upstream.subscriber as? any Subscriber)
        let link = try #require(rig.trigger.subscriber as? any Subscriber)
        let handedDown = try #require(rig.subscriber.subscription)
        let same = (inner as AnyObject) === (handedDown as AnyObject)
        #expect(same)
        #expect(link.combineIdentifier == inner.combineIdentifier)
        for side in [inner as Any, link as Any] {
            #expect(!(side is any CustomStringConvertible))
            #expect(!(side is any CustomReflectable))
            #expect(!(side is any CustomPlaygroundDisplayConvertible))
        }
    }

    /// The trigger is cancelled after its value too (Combine leaves it running).
    @Test func prefixFinishesAndCancelsBothSidesOnTheTriggersValue() {
        let rig = Rig()
        rig.prefix()
        #expect(rig.triggerSubscription.requests == [.max(1)])
        rig.upstream.send(1)
        #expect(rig.trigger.send(0) == .none)
        #expect(rig.upstreamSubscription.cancels == 1)
        #expect(rig.triggerSubscription.cancels == 1)
        #expect(rig.subscriber.values == [1])
        #expect(rig.subscriber.completions == [.finished])
    }

    /// Combine sends `.finished` at once, to a downstream without a subscription;
    /// Streams hands the subscription down first, when the upstream's arrives (and cancels that).
    @Test func prefixTriggeredBeforeTheUpstreamSubscriptionFinishesWhenItArrives() {
        let rig = Rig()
        rig.upstream.holdsSubscription = true
        rig.prefix()
        rig.trigger.send(0)
        #expect(rig.subscriber.events.isEmpty)
        #expect(rig.triggerSubscription.cancels == 1)
        let late = rig.upstream.sendSubscription()
        #expect(late?.cancels == 1)
        #expect(rig.subscriber.subscriptionCount == 1)
        #expect(rig.subscriber.completions == [.finished])
    }

    @Test(arguments: [false, true])
    func prefixIgnoresATriggerCompletionWithoutAValue(failing: Bool) {
        let rig = Rig()
        rig.prefix()
        if failing { rig.trigger.fail() } else { rig.trigger.finish() }
        rig.upstream.send(1)
        #expect(rig.subscriber.values == [1])
        #expect(rig.subscriber.completions == [])
        #expect(rig.upstreamSubscription.cancels == 0)
    }

    @Test func prefixIgnoresATriggerValueBeforeTheTriggersSubscription() {
        let rig = Rig()
        rig.trigger.holdsSubscription = true
        rig.prefix()
        rig.trigger.send(0)
        rig.upstream.send(1)
        #expect(rig.subscriber.values == [1])
        #expect(rig.subscriber.completions == [])
    }

    @Test func prefixIgnoresUpstreamEventsBeforeItsSubscription() {
        let rig = Rig()
        rig.upstream.holdsSubscription = true
        rig.upstream.ignoresCancel = true
        rig.prefix()
        #expect(rig.upstream.send(1) == .none)
        rig.upstream.finish()
        #expect(rig.subscriber.events.isEmpty)
        // The completion still cancels the trigger.
        #expect(rig.triggerSubscription.cancels == 1)
    }

    @Test func prefixForwardsTheUpstreamCompletionAndCancelsTheTrigger() {
        let rig = Rig()
        rig.prefix()
        rig.upstream.fail()
        #expect(rig.subscriber.completions == [.failure(.oops)])
        #expect(rig.triggerSubscription.cancels == 1)
    }

    @Test func prefixForwardsRequestsIncludingZero() {
        let rig = Rig(initialDemand: .max(1))
        rig.prefix()
        rig.subscriber.request(.none)
        #expect(rig.upstreamSubscription.requests == [.max(1), .none])
    }

    @Test func prefixCancelledBeforeTheUpstreamSubscriptionCancelsTheTriggerAndTheLateSubscription() throws {
        let rig = Rig()
        rig.upstream.holdsSubscription = true
        rig.prefix()
        try #require(rig.upstream.subscriber as? any Subscription).cancel()
        #expect(rig.triggerSubscription.cancels == 1)
        #expect(rig.upstream.sendSubscription()?.cancels == 1)
        #expect(rig.subscriber.events.isEmpty)
    }

    @Test func prefixTriggeredFromInsideTheDownstreamFinishesAfterTheDelivery() {
        let trigger = PassthroughSubject<Void, Never>()
        let upstream = PassthroughSubject<Int, Never>()
        let order = Log<String>()
        let subscriber = TestSubscriber<Int, Never>(onValue: { value in
            order.append("begin \(value)")
            trigger.send(())
            upstream.send(value + 1)  // ignored: the output has ended
            order.append("end \(value)")
        })
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        upstream.send(1)
        #expect(order.items == ["begin 1", "end 1"])
        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.finished])
    }
}
