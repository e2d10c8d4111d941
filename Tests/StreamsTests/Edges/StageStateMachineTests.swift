@testable import Streams
import Testing

/// The phases of ``StageStateMachine`` on their own, for an ordinary stage and for the filter
/// family, whose edges are stricter: it cancels a late subscription and traps on events before
/// its subscription.
@Suite struct StageStateMachineTests {
    private final class Core {}

    @Test func anOrdinaryStageKeepsItsLateSubscriptionAfterAnEarlyCancel() {
        let core = Core()
        var machine = StageStateMachine(kind: .tryMap, core: core)
        guard case .none = machine.cancel() else { Issue.record("an early cancel is ignored"); return }
        guard case .ignore = machine.request() else { Issue.record("a request before the subscription is ignored"); return }
        guard case .ignore = machine.receiveCompletion() else { Issue.record("an early completion is ignored"); return }
        #expect(machine.waitingCore === core)
        #expect(machine.receiveSubscription(ManualSubscription()) === core)
        #expect(machine.subscribedCore === core)
        #expect(machine.receiveSubscription(ManualSubscription()) == nil)
        guard case .forward = machine.request() else { Issue.record("a request goes upstream"); return }
        guard case .forward(let ended) = machine.receiveCompletion() else { Issue.record("the completion is forwarded"); return }
        #expect(ended === core)
        #expect(machine.subscribedCore == nil && machine.waitingCore == nil)
        guard case .none = machine.end() else { Issue.record("an ended stage does not end again"); return }
        guard case .ignore = machine.receiveCompletion() else { Issue.record("a second completion is ignored"); return }
    }

    @Test func theFilterFamilyEndsOnAnEarlyCancelAndTrapsOnEarlyEvents() {
        let core = Core()
        var early = StageStateMachine(kind: .removeDuplicates, core: core)
        guard case .trap = early.request() else { Issue.record("an early request traps"); return }
        guard case .trap = early.receiveCompletion() else { Issue.record("an early completion traps"); return }
        guard case .release(let released) = early.cancel() else { Issue.record("an early cancel ends the stage"); return }
        #expect(released === core)
        #expect(early.receiveSubscription(ManualSubscription()) == nil)

        var stage = StageStateMachine(kind: .prefixWhile, core: core)
        _ = stage.receiveSubscription(ManualSubscription())
        guard case .complete(_, let ended) = stage.end() else { Issue.record("the stage ends"); return }
        #expect(ended === core)
        guard case .none = stage.cancel() else { Issue.record("a cancel after the end is ignored"); return }
    }
}
