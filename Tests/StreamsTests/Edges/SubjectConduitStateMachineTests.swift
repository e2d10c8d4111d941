@testable import Streams
import StreamsTesting
import Testing

/// The subject conduit's state machine on its own: phases, the turn, demand and what each event
/// asks the conduit to do. Threads are plain numbers here.
@Suite struct SubjectConduitStateMachineTests {
    typealias Machine = SubjectConduitStateMachine

    let subscribing = 100
    /// The machine is not generic: its `finish` takes any completion, boxed if it is queued.
    static let finished = Subscribers.Completion<Never>.finished
    let other = 200

    /// A machine whose subscription has been handed over (the subscribing thread let the turn go).
    func started(_ kind: SubjectKind, demand: Subscribers.Demand = .none) -> (Machine, SubjectCore<Int, Never>) {
        let core = SubjectCore<Int, Never>(current: kind.replaysCurrent ? 7 : nil, kind: kind)
        let live = Machine.Live(downstream: Box(TestSubscriber<Int, Never>()), subject: core, core: core)
        var machine = Machine(kind: kind, live: live, subscribingThread: subscribing)
        guard case .idle = machine.drain(adding: .none) else {
            Issue.record("the handed-over subscription should leave nothing to do")
            return (machine, core)
        }
        if demand > 0 {
            _ = machine.request(demand, from: subscribing)
            if case .currentValue = kind { _ = machine.drain(adding: .none) }
        }
        return (machine, core)
    }

    func phaseName(_ machine: Machine) -> String {
        switch machine.phase {
        case .subscribed: "subscribed"
        case .completing: "completing"
        case .terminated(let retained): retained == nil ? "terminated" : "terminated, retained"
        }
    }

    @Test func aValueWithoutDemandIsDroppedAndOnlyASubjectWithAValueRemembersIt() {
        var (passthrough, _) = started(.passthrough)
        guard case .none = passthrough.offer(1, from: other) else { Issue.record("not dropped"); return }
        #expect(!passthrough.behind)

        var (current, _) = started(.currentValue, demand: .max(1))
        #expect(!current.behind)
        guard case .none = current.offer(1, from: other) else { Issue.record("not dropped"); return }
        #expect(current.behind)
        guard case .deliverCurrent(_, let notify) = current.request(.max(1), from: other) else {
            Issue.record("the current value is owed"); return
        }
        #expect(!notify)
        #expect(current.turn.holder == other)
        #expect(!current.behind)
        #expect(current.demand == .none)
    }

    @Test func onlyTheFirstRequestTellsTheCore() {
        var (machine, core) = started(.passthrough)
        guard case .notify(let told, fast: false) = machine.request(.max(1), from: other) else {
            Issue.record("the first request tells the core"); return
        }
        #expect(told === core)
        guard case .none(fast: false) = machine.request(.max(1), from: other) else {
            Issue.record("later requests do not"); return
        }
        #expect(machine.demand == .max(2))
    }

    @Test func unlimitedDemandWithNothingUnderWayAllowsTheFastPath() {
        var (machine, _) = started(.passthrough)
        guard case .notify(_, fast: true) = machine.request(.unlimited, from: other) else {
            Issue.record("unlimited demand allows the fast path"); return
        }
        guard case .deliver = machine.offer(1, from: other) else { Issue.record("not delivered"); return }
        #expect(!machine.allowsFastDelivery)
        guard case .idle(fast: true) = machine.drain(adding: .none) else { Issue.record("not idle"); return }
    }

    @Test func reentrantEventsAreQueuedAndACompletionClosesTheConduit() {
        var (machine, _) = started(.passthrough, demand: .max(5))
        guard case .deliver = machine.offer(1, from: other) else { Issue.record("not delivered"); return }
        // Inside the subscriber, on the delivering thread:
        guard case .none = machine.offer(2, from: other) else { Issue.record("not queued"); return }
        guard case .none = machine.finish(Self.finished, from: other) else { Issue.record("not queued"); return }
        #expect(phaseName(machine) == "completing")
        guard case .none = machine.offer(3, from: other) else { Issue.record("not ignored"); return }
        #expect(machine.demand == .max(3))
        guard case .value(let value) = machine.drain(adding: .none), (value as? Box<Int>)?.value == 2 else {
            Issue.record("queued value first"); return
        }
        guard case .completion(let remains, let completion) = machine.drain(adding: .none),
            case .finished = (completion as? Box<Subscribers.Completion<Never>>)?.value
        else {
            Issue.record("then the completion"); return
        }
        #expect(remains.downstream != nil)
        #expect(phaseName(machine) == "terminated")
        #expect(!machine.turn.isHeld)
    }

    @Test func anotherThreadWaitsAndIsHandedTheTurn() {
        var (machine, _) = started(.passthrough, demand: .max(5))
        guard case .deliver = machine.offer(1, from: subscribing) else { Issue.record("not delivered"); return }
        guard case .wait(let waiter) = machine.finish(Self.finished, from: other) else { Issue.record("no wait"); return }
        guard case .handOver(let next) = machine.drain(adding: .none) else { Issue.record("no hand-over"); return }
        #expect(next === waiter)
        guard case .deliver(let remains) = machine.resumeFinish(waiter) else { Issue.record("no delivery"); return }
        #expect(remains.downstream != nil)
        #expect(phaseName(machine) == "terminated")
    }

    @Test func cancelDuringADeliveryLeavesTheSubscriberToThatDelivery() {
        var (machine, _) = started(.currentValue, demand: .max(5))
        guard case .deliver = machine.offer(1, from: other) else { Issue.record("not delivered"); return }
        let remains = machine.cancel()
        #expect(remains != nil)
        #expect(remains?.downstream == nil)
        #expect(phaseName(machine) == "terminated, retained")
        #expect(machine.cancel() == nil)
        guard case .release(let released) = machine.drain(adding: .max(1)) else { Issue.record("no release"); return }
        #expect(released != nil)
        #expect(phaseName(machine) == "terminated")
        #expect(!machine.turn.isHeld)
        guard case .none(fast: false) = machine.request(.max(1), from: other) else {
            Issue.record("a terminated conduit ignores requests"); return
        }
    }
}
