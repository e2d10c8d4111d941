@testable import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// The state machines of catch, concatenate, replaceError, replaceEmpty and the until-output
/// pair, driven directly: each event's phase change and returned action.
@Suite("State machines of catch, concatenate, replace and until-output")
struct RecoveryStateMachineTests {
    // MARK: catch

    @Test func catchRunsThroughItsPhases() {
        let core = Tracked()
        var machine = CatchStateMachine(resources: core)
        let upstream = RecordingSubscription()
        guard case .handOver(let handed1) = machine.upstreamSubscribed(upstream) else {
            Issue.record("expected a hand-over")
            return
        }
        #expect(ObjectIdentifier(handed1) == ObjectIdentifier(core))
        guard case .cancel = machine.upstreamSubscribed(RecordingSubscription()) else {
            Issue.record("a second subscription must be cancelled")
            return
        }
        do {
            let result = machine.request(.max(3))
            let same = result.subscription.map { $0 as AnyObject } === upstream
            #expect(same)
        }
        do {
            let result = machine.upstreamValue()
            #expect(result.map { $0 === core } == true)
        }
        machine.upstreamValueDelivered(returning: .max(1))
        #expect(machine.demand == .max(3))
        guard case .recover(let handed2) = machine.upstreamCompleted(failed: true) else {
            Issue.record("expected the recovery")
            return
        }
        #expect(ObjectIdentifier(handed2) == ObjectIdentifier(core))
        do {  // added up while awaiting
            let result = machine.request(.max(2))
            #expect(result.subscription == nil)
        }
        guard case .request(.max(5)) = machine.recoverySubscribed(RecordingSubscription()) else {
            Issue.record("expected the recovery to be asked for the demand")
            return
        }
        do {
            let result = machine.recoveryValue()
            #expect(result.map { $0 === core } == true)
        }
        #expect(machine.demand == .max(5))  // recovery values are not counted
        guard case .complete(let handed3) = machine.recoveryCompleted() else {
            Issue.record("expected the completion")
            return
        }
        #expect(ObjectIdentifier(handed3) == ObjectIdentifier(core))
        #expect(machine.resources == nil)
        guard case .none = machine.recoveryCompleted() else {
            Issue.record("a completion goes once")
            return
        }
    }

    @Test func catchCancelWhileAwaitingTheRecoveryCancelsItsSubscription() {
        let core = Tracked()
        var machine = CatchStateMachine(resources: core)
        _ = machine.upstreamSubscribed(RecordingSubscription())
        _ = machine.upstreamCompleted(failed: true)
        guard case .release(let released) = machine.cancel() else {
            Issue.record("only the resources are let go")
            return
        }
        let same = released === core
        #expect(same)
        guard case .cancel = machine.recoverySubscribed(RecordingSubscription()) else {
            Issue.record("the late recovery subscription must be cancelled")
            return
        }
        guard case .none = machine.handlerThrew() else {
            Issue.record("nothing goes downstream after a cancel")
            return
        }
        guard case .none = machine.upstreamCompleted(failed: true) else {
            Issue.record("a failure after a cancel is ignored")
            return
        }
    }

    @Test func catchCancelBeforeTheSubscriptionChangesNothing() {
        let core = Tracked()
        var machine = CatchStateMachine(resources: core)
        guard case .none = machine.cancel() else { Issue.record("a cancel before the subscription changes nothing"); return }
        guard case .handOver = machine.upstreamSubscribed(RecordingSubscription()) else {
            Issue.record("the late subscription must be accepted")
            return
        }
    }

    @Test func catchThrowingHandlerCompletes() {
        let core = Tracked()
        var machine = CatchStateMachine(resources: core)
        _ = machine.upstreamSubscribed(RecordingSubscription())
        _ = machine.upstreamCompleted(failed: true)
        guard case .complete(let handed4) = machine.handlerThrew() else {
            Issue.record("the thrown error must go downstream")
            return
        }
        #expect(ObjectIdentifier(handed4) == ObjectIdentifier(core))
        do {
            let result = machine.upstreamValue()
            #expect(result == nil)
        }
        guard case .none = machine.upstreamCompleted(failed: true) else {
            Issue.record("a failure after the handler threw is ignored")
            return
        }
    }

    @Test func catchRequestBeforeTheSubscriptionTraps() async {
        await #expect(processExitsWith: .failure) {
            var machine = CatchStateMachine(resources: Tracked())
            _ = machine.request(.max(1))
        }
    }

    // MARK: concatenate

    @Test func concatenateRunsThroughItsPhases() {
        var machine = ConcatenateStateMachine(resources: "core")
        do {
            let result = machine.request(.max(2))
            #expect(result.subscription == nil)
        }
        let prefix = RecordingSubscription()
        guard case .handOver("core", .max(2)) = machine.prefixSubscribed(prefix) else {
            Issue.record("expected a hand-over with the demand requested before")
            return
        }
        do {
            let result = machine.prefixValue()
            #expect(result == "core")
        }
        do {
            let result = machine.prefixValue()
            #expect(result == "core")
        }
        do {  // beyond the demand
            let result = machine.prefixValue()
            #expect(result == nil)
        }
        machine.prefixValueDelivered(returning: .max(1))
        guard case .subscribeSuffix("core") = machine.prefixCompleted(failed: false) else {
            Issue.record("expected the suffix to be subscribed")
            return
        }
        do {  // before its subscription
            let result = machine.suffixValue()
            #expect(result == nil)
        }
        guard case .request(.max(1)) = machine.suffixSubscribed(RecordingSubscription()) else {
            Issue.record("expected the suffix to be asked for what remains")
            return
        }
        do {
            let result = machine.suffixValue()
            #expect(result == "core")
        }
        guard case .complete("core") = machine.suffixCompleted() else {
            Issue.record("expected the completion")
            return
        }
        guard case .none = machine.suffixCompleted() else {
            Issue.record("a completion goes once")
            return
        }
    }

    @Test func concatenateCancelDropsTheSuffix() {
        var machine = ConcatenateStateMachine(resources: "core")
        let prefix = RecordingSubscription()
        _ = machine.prefixSubscribed(prefix)
        guard case .cancel(let active, let released) = machine.cancel() else { Issue.record("nothing cancelled"); return }
        let same = (active as AnyObject) === prefix
        #expect(same)
        #expect(released == "core")
        guard case .none = machine.prefixCompleted(failed: false) else {
            Issue.record("a prefix finishing after a cancel subscribes nothing")
            return
        }
    }

    // MARK: replaceError / asResult

    @Test func recoveringHoldsTheFailureUntilRequested() {
        var machine = RecoveringStateMachine<String, TestError>(resources: "core")
        do {
            guard case .handOver(_, let demand) = machine.subscribed(RecordingSubscription()) else {
                Issue.record("the subscription must be kept")
                return
            }
            #expect(demand == Subscribers.Demand.none)
        }
        guard case .none = machine.completed(failure: .oops) else {
            Issue.record("without demand the failure is held")
            return
        }
        guard case .deliverFinal("core", .oops) = machine.request(.max(1)) else {
            Issue.record("a request delivers the last value")
            return
        }
        #expect(machine.resources == nil)
    }

    @Test func recoveringCountsDemand() {
        var machine = RecoveringStateMachine<String, TestError>(resources: "core")
        do {  // before the subscription
            let result = machine.value()
            #expect(result == nil)
        }
        _ = machine.request(.max(1))
        do {
            guard case .handOver(_, let demand) = machine.subscribed(RecordingSubscription()) else {
                Issue.record("the subscription must be kept")
                return
            }
            #expect(demand == .max(1))
        }
        do {
            let result = machine.value()
            #expect(result == "core")
        }
        #expect(machine.demand == .none)
    }

    // MARK: replaceEmpty

    @Test func replaceEmptyHoldsTheReplacementUntilRequested() {
        var machine = ReplaceEmptyStateMachine(resources: "core")
        _ = machine.subscribed(RecordingSubscription())
        guard case .none = machine.completed(failed: false) else {
            Issue.record("without a request the replacement is held")
            return
        }
        guard case .replace("core") = machine.request(.max(1)) else {
            Issue.record("a request sends the replacement")
            return
        }
    }

    @Test func replaceEmptyForwardsAFailureAndACompletionAfterAValue() {
        var failing = ReplaceEmptyStateMachine(resources: "core")
        _ = failing.subscribed(RecordingSubscription())
        guard case .complete("core") = failing.completed(failed: true) else {
            Issue.record("a failure goes at once")
            return
        }
        var valued = ReplaceEmptyStateMachine(resources: "core")
        _ = valued.subscribed(RecordingSubscription())
        do {
            let result = valued.value()
            #expect(result == "core")
        }
        guard case .complete("core") = valued.completed(failed: false) else {
            Issue.record("after a value `.finished` goes as it is")
            return
        }
    }

    // MARK: drop(untilOutputFrom:)

    @Test func dropUntilOutputRunsThroughItsPhases() {
        var machine = DropUntilOutputStateMachine(resources: "core")
        do {
            let result = machine.request(.max(2))
            #expect(result.subscription == nil)
        }
        let trigger = RecordingSubscription()
        do {
            let result = machine.triggerSubscribed(trigger)
            #expect(result)
        }
        do {
            let result = machine.triggerSubscribed(RecordingSubscription())
            #expect(!result)
        }
        do {
            let result = machine.upstreamSubscribed(RecordingSubscription())
            #expect(result == .max(2))
        }
        do {
            let result = machine.upstreamSubscribed(RecordingSubscription())
            #expect(result == nil)
        }
        guard case .drop = machine.upstreamValue() else {
            Issue.record("before the trigger values are dropped")
            return
        }
        #expect(machine.demand == .max(2))
        do {
            let result = machine.triggerValue()
            let same = result.subscription.map { $0 as AnyObject } === trigger
            #expect(same)
        }
        do {
            let result = machine.triggerValue()
            #expect(result.subscription == nil)
        }
        guard case .deliver("core") = machine.upstreamValue() else {
            Issue.record("after the trigger values pass")
            return
        }
        #expect(machine.demand == .max(1))
        guard case .none = machine.triggerCompleted() else {
            Issue.record("after its value the trigger's completion is ignored")
            return
        }
        guard case .complete("core", _) = machine.upstreamCompleted() else {
            Issue.record("the upstream completion goes downstream")
            return
        }
    }

    @Test func dropUntilOutputEndsWhenTheTriggerCompletesFirst() {
        var machine = DropUntilOutputStateMachine(resources: "core")
        let upstream = RecordingSubscription()
        _ = machine.upstreamSubscribed(upstream)
        guard case .complete("core", let cancelling) = machine.triggerCompleted() else {
            Issue.record("the trigger completing first ends the output")
            return
        }
        let same = cancelling.subscription.map { $0 as AnyObject } === upstream
        #expect(same)
        guard case .none = machine.triggerCompleted() else {
            Issue.record("once only")
            return
        }
    }

    // MARK: prefix(untilOutputFrom:)

    @Test func prefixUntilOutputRunsThroughItsPhases() {
        var machine = PrefixUntilOutputStateMachine<String, Int, TestError>(resources: "core")
        let thread = ThreadIdentity.current
        let trigger = RecordingSubscription()
        do {
            let result = machine.triggerSubscribed(trigger)
            #expect(result)
        }
        guard case .handOver("core") = machine.upstreamSubscribed(RecordingSubscription(), thread: thread) else {
            Issue.record("expected a hand-over")
            return
        }
        guard case .none = machine.endDelivery() else {
            Issue.record("nothing queued")
            return
        }
        guard case .deliver("core", nested: false) = machine.upstreamValue(1, thread: thread) else {
            Issue.record("expected a delivery")
            return
        }
        // The trigger fires from inside that delivery: the completion is queued behind it.
        guard case .queued = machine.triggerValue(thread: thread) else {
            Issue.record("expected the completion to be queued")
            return
        }
        guard case .ignore = machine.upstreamValue(1, thread: thread) else {
            Issue.record("values after the trigger are ignored")
            return
        }
        guard case .complete("core", .finished, _) = machine.endDelivery() else {
            Issue.record("the queued completion goes when the delivery returns")
            return
        }
        #expect(!machine.turn.isHeld)
    }

    /// A value from a thread that the delivering thread waits for (through another turn) may
    /// not wait for it: it is queued, and the delivering thread delivers it when its own
    /// delivery returns, asking the upstream for the demand the downstream returns.
    @Test func prefixUntilOutputQueuesAValueWhoseWaitWouldDeadlock() {
        var machine = PrefixUntilOutputStateMachine<String, Int, TestError>(resources: "core")
        let (delivering, sending) = (76_001, 76_002)
        // The delivering thread waits for a turn that the sending thread holds.
        var other = DeliveryTurn(holder: sending)
        guard case .wait = other.claim(for: delivering) else {
            Issue.record("expected a wait")
            return
        }
        _ = machine.triggerSubscribed(RecordingSubscription())
        let upstream = RecordingSubscription()
        guard case .handOver = machine.upstreamSubscribed(upstream, thread: delivering) else {
            Issue.record("expected a hand-over")
            return
        }
        guard case .ignore = machine.upstreamValue(5, thread: sending) else {
            Issue.record("expected the value to be queued")
            return
        }
        guard case .deliver("core", 5, let asked) = machine.endDelivery() else {
            Issue.record("the queued value goes when the delivery returns")
            return
        }
        #expect(asked.subscription.map { $0 as AnyObject } === upstream)
        guard case .none = machine.endDelivery() else {
            Issue.record("nothing more")
            return
        }
        #expect(!machine.turn.isHeld)
        _ = other.dismissAll()
    }

    @Test func prefixUntilOutputIgnoresATriggerCompletion() {
        var machine = PrefixUntilOutputStateMachine<String, Int, TestError>(resources: "core")
        let thread = ThreadIdentity.current
        _ = machine.triggerSubscribed(RecordingSubscription())
        machine.triggerCompleted()
        guard case .none = machine.triggerValue(thread: thread) else {
            Issue.record("a completed trigger's value is ignored")
            return
        }
        guard case .handOver = machine.upstreamSubscribed(RecordingSubscription(), thread: thread) else {
            Issue.record("expected a hand-over")
            return
        }
    }

    @Test func prefixUntilOutputTriggeredEarlyFinishesOnTheSubscription() {
        var machine = PrefixUntilOutputStateMachine<String, Int, TestError>(resources: "core")
        let thread = ThreadIdentity.current
        let trigger = RecordingSubscription()
        _ = machine.triggerSubscribed(trigger)
        guard case .deliver(nil, _, let cancelling) = machine.triggerValue(thread: thread) else {
            Issue.record("nothing is delivered before the subscription")
            return
        }
        let same = cancelling.subscription.map { $0 as AnyObject } === trigger
        #expect(same)
        guard case .handOverAndFinish("core") = machine.upstreamSubscribed(RecordingSubscription(), thread: thread)
        else {
            Issue.record("the late subscription ends the output")
            return
        }
    }
}
