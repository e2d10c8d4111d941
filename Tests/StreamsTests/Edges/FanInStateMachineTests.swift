import StreamsTesting
import Testing

@testable import Streams

/// ``FanInStateMachine`` driven directly: its phases and the actions its events return.
@Suite struct FanInStateMachineTests {
    private func isCancel(_ action: FanInStateMachine.SubscriptionAction) -> Bool {
        if case .cancel = action { return true }
        return false
    }

    private func isHandOver(_ action: FanInStateMachine.SubscriptionAction) -> Bool {
        if case .handOver = action { return true }
        return false
    }

    private func requested(_ action: FanInStateMachine.SubscriptionAction) -> Subscribers.Demand? {
        if case .request(let demand) = action { return demand }
        return nil
    }

    /// The subscriptions a completion action cancels; nil when it is ignored.
    private func cancelled(_ action: FanInStateMachine.CompletionAction) -> (handOver: Bool, count: Int)? {
        if case .complete(let handOver, let ending) = action { return (handOver, ending.cancel.count) }
        return nil
    }

    /// What a downstream request asks of the upstreams; nil when it asks nothing.
    private func asked(
        _ machine: inout FanInStateMachine, _ demand: Subscribers.Demand, on thread: Int
    ) -> (rows: [UpstreamTable.Row], except: Int)? {
        if case .ask(let rows, let except) = machine.downstreamRequested(demand, on: thread) { return (rows, except) }
        return nil
    }

    private func phaseName(_ machine: FanInStateMachine) -> String {
        switch machine.phase {
        case .awaitingSubscription: "awaitingSubscription"
        case .subscribed: "subscribed"
        case .terminated: "terminated"
        case .modifying: "modifying"
        }
    }

    @Test func zipHandsOverWhenTheLastSubscriptionArrives() {
        var machine = FanInStateMachine(mode: .zip, count: 2)
        #expect(phaseName(machine) == "awaitingSubscription")
        let first = machine.receivedSubscription(RecordingSubscription(), at: 1)
        #expect(requested(first) == Subscribers.Demand.none)
        let duplicate = machine.receivedSubscription(RecordingSubscription(), at: 1)
        #expect(isCancel(duplicate))
        let early = asked(&machine, .max(1), on: 1)
        #expect(early == nil)
        let last = machine.receivedSubscription(RecordingSubscription(), at: 0)
        #expect(isHandOver(last))
        #expect(phaseName(machine) == "subscribed")
        let afterHandOver = machine.receivedSubscription(RecordingSubscription(), at: 0)
        #expect(isCancel(afterHandOver))
    }

    @Test func mergeAndCombineLatestStartActiveAndAskLateUpstreamsForAllRequested() {
        for mode in [FanInStateMachine.Mode.merge, .latest] {
            var machine = FanInStateMachine(mode: mode, count: 2)
            #expect(phaseName(machine) == "subscribed")
            let first = machine.receivedSubscription(RecordingSubscription(), at: 0)
            #expect(requested(first) == Subscribers.Demand.none)
            let some = asked(&machine, .max(2), on: 1)
            #expect(some?.except == -1)
            let more = asked(&machine, .max(3), on: 1)
            #expect(more?.rows.count == 2)
            let late = machine.receivedSubscription(RecordingSubscription(), at: 1)
            #expect(requested(late) == .max(5))
        }
    }

    @Test func mergeFinishesWhenEveryUpstreamHasFinished() {
        var machine = FanInStateMachine(mode: .merge, count: 2)
        _ = machine.receivedSubscription(RecordingSubscription(), at: 0)
        _ = machine.receivedSubscription(RecordingSubscription(), at: 1)
        let one = machine.receivedCompletion(at: 0, failed: false)
        #expect(cancelled(one) == nil)
        let again = machine.receivedCompletion(at: 0, failed: false)
        #expect(cancelled(again) == nil)
        let other = machine.receivedCompletion(at: 1, failed: false)
        #expect(cancelled(other)! == (false, 0))
        #expect(phaseName(machine) == "terminated")
        let afterwards = machine.receivedCompletion(at: 1, failed: true)
        #expect(cancelled(afterwards) == nil)
    }

    @Test func aFailureTerminatesAndCancelsTheLiveUpstreams() {
        var machine = FanInStateMachine(mode: .latest, count: 3)
        for index in 0..<3 { _ = machine.receivedSubscription(RecordingSubscription(), at: index) }
        _ = machine.receivedCompletion(at: 2, failed: false)
        let failure = machine.receivedCompletion(at: 0, failed: true)
        #expect(cancelled(failure)! == (false, 2))
        let cancel = machine.cancelled()
        #expect(cancel == nil)
        let late = machine.receivedSubscription(RecordingSubscription(), at: 1)
        #expect(isCancel(late))
    }

    @Test func combineLatestOutputsOnceEveryUpstreamHasAValue() throws {
        var machine = FanInStateMachine(mode: .latest, count: 2)
        var slot: Any = ()
        let none = machine.receivedLatest(&slot, at: 0)
        #expect(none == nil)
        slot = 1
        let stillNone = machine.receivedLatest(&slot, at: 0)
        #expect(stillNone == nil)
        // The value a newer one replaces is handed back, to be let go after the lock.
        #expect(slot is Void)
        slot = "b"
        let both = machine.receivedLatest(&slot, at: 1)
        let latest = try #require(both)
        #expect(latest[0] as? Int == 1)
        #expect(latest[1] as? String == "b")
        slot = 2
        let newer = machine.receivedLatest(&slot, at: 0)
        #expect(try #require(newer)[0] as? Int == 2)
        #expect(slot as? Int == 1)
    }

    @Test func zipPairsInOrderAndFinishesWhenAFinishedUpstreamRunsDry() throws {
        var machine = FanInStateMachine(mode: .zip, count: 2)
        let early = machine.receivedZipped(0, at: 0, thread: 1)
        #expect(early.tuple == nil)  // before the hand-over: ignored
        _ = machine.receivedSubscription(RecordingSubscription(), at: 0)
        _ = machine.receivedSubscription(RecordingSubscription(), at: 1)
        let one = machine.receivedZipped(1, at: 0, thread: 1)
        #expect(one.tuple == nil)
        let two = machine.receivedZipped(2, at: 0, thread: 1)
        #expect(two.tuple == nil)
        let finished = machine.receivedCompletion(at: 0, failed: false)
        #expect(cancelled(finished) == nil)
        let first = machine.receivedZipped(10, at: 1, thread: 1)
        #expect(first.tuple?.compactMap { $0 as? Int } == [1, 10])
        #expect(first.opensDelivery)
        #expect(first.finish == nil)
        let delivered = machine.deliveredZipped(.max(1))
        #expect(delivered.returned == .max(1))
        let last = machine.receivedZipped(20, at: 1, thread: 1)
        #expect(last.tuple?.compactMap { $0 as? Int } == [2, 20])
        #expect(last.finish?.cancel.count == 1)
        #expect(phaseName(machine) == "terminated")
        let afterwards = machine.deliveredZipped(.max(1))
        #expect(afterwards.returned == .none)
    }

    @Test func zipCountsARequestOnTheDeliveringThreadForTheCompletingUpstream() throws {
        var machine = FanInStateMachine(mode: .zip, count: 3)
        for index in 0..<3 { _ = machine.receivedSubscription(RecordingSubscription(), at: index) }
        _ = machine.receivedZipped(1, at: 0, thread: 7)
        _ = machine.receivedZipped(2, at: 2, thread: 7)
        let opening = machine.receivedZipped(3, at: 1, thread: 7)
        #expect(opening.opensDelivery)
        // A re-entrant tuple on the same thread does not open a second delivery.
        _ = machine.receivedZipped(4, at: 0, thread: 7)
        _ = machine.receivedZipped(5, at: 2, thread: 7)
        let reentrant = machine.receivedZipped(6, at: 1, thread: 7)
        #expect(!reentrant.opensDelivery)
        let inside = asked(&machine, .max(2), on: 7)
        #expect(inside?.except == 1)
        let elsewhere = asked(&machine, .max(5), on: 8)
        #expect(elsewhere?.except == -1)
        let replenish = machine.deliveredZipped(.max(1))
        #expect(replenish.returned == .max(3))
        #expect(replenish.demand == .max(1))
        #expect(replenish.except == 1)
        #expect(machine.requested == .max(8))
        let after = asked(&machine, .max(1), on: 7)
        #expect(after?.except == -1)
    }

    @Test func zipFinishedWhileSubscribingHandsOverAndCancelsTheOthers() {
        var machine = FanInStateMachine(mode: .zip, count: 3)
        _ = machine.receivedSubscription(RecordingSubscription(), at: 1)
        _ = machine.receivedSubscription(RecordingSubscription(), at: 0)
        let finished = machine.receivedCompletion(at: 0, failed: false)
        #expect(cancelled(finished)! == (true, 1))
        let late = machine.receivedSubscription(RecordingSubscription(), at: 2)
        #expect(isCancel(late))
    }

    @Test func mergeOfNothingFinishesAtOnce() {
        var empty = FanInStateMachine(mode: .merge, count: 0)
        let finishes = empty.startedEmpty()
        #expect(finishes)
        #expect(phaseName(empty) == "terminated")
        var two = FanInStateMachine(mode: .merge, count: 2)
        let twoFinishes = two.startedEmpty()
        #expect(!twoFinishes)
    }
}
