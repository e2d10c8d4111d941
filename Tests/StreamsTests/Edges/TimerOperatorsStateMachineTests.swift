@testable import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// The state machines of timeout, debounce, throttle and collect(.byTime), driven directly: their
/// phases, the stale-timer checks, and what each event hands back to do outside the lock.
@Suite struct TimerOperatorsStateMachineTests {
    typealias Downstream = TestSubscriber<Int, TestError>

    /// A cancellable that counts its cancels.
    final class Timer: Cancellable, @unchecked Sendable {
        var cancels = 0
        func cancel() { cancels += 1 }
    }

    /// Whether `value` is `object`.
    static func same(_ value: Any?, _ object: AnyObject) -> Bool {
        guard let value else { return false }
        return (value as AnyObject) === object
    }

    static func phaseName<Phase>(_ phase: Phase) -> String {
        String(describing: phase).prefix { $0 != "(" }.description
    }

    // MARK: timeout

    @Test func timeoutArmsOnSubscriptionFirstRequestAndValuesAndIgnoresStaleTimers() throws {
        var machine = TimeoutStateMachine(downstream: Downstream())
        guard case .none = machine.cancel() else { Issue.record("cancelled before the subscription"); return }
        #expect(Self.phaseName(machine.phase) == "awaitingSubscription", "cancel before the subscription changes nothing")
        let upstream = RecordingSubscription()
        guard case .arm = machine.receiveSubscription(upstream) else { Issue.record("not armed"); return }
        guard case .cancel = machine.receiveSubscription(RecordingSubscription()) else { Issue.record("accepted twice"); return }
        let first = Timer()
        let event2 = machine.armed(1, timer: first)
        #expect(event2 == nil)
        guard case .armAndForward(let wait, let forwardTo) = machine.request() else { Issue.record("not armed"); return }
        #expect(wait == 2)
        #expect(Self.same(forwardTo, upstream))
        guard case .forward = machine.request() else { Issue.record("only the first request re-arms"); return }
        let second = Timer()
        let replaced = machine.armed(2, timer: second)
        #expect(Self.same(replaced, first), "the replaced timer is handed back")
        guard case .none = machine.timedOut(1) else { Issue.record("a replaced wait does not end the stream"); return }
        let event5 = machine.receiveValue()
        #expect(event5 == 3)
        let event6 = machine.armed(2, timer: Timer())
        #expect(event6 != nil, "a stale timer is handed back to be cancelled")
        let third = Timer()
        _ = machine.armed(3, timer: third)
        guard case .end(let endedTimer, let endedUpstream, _) = machine.timedOut(3) else { Issue.record("not ended"); return }
        #expect(Self.same(endedTimer, third))
        #expect(Self.same(endedUpstream, upstream))
        #expect(Self.phaseName(machine.phase) == "terminated")
        let event7 = machine.receiveValue()
        #expect(event7 == nil)
        let event8 = machine.deliverValue()
        #expect(event8 == nil)
    }

    @Test func timeoutCompletionWaitsForItsDeliveryAndLetsScheduledValuesThrough() throws {
        var machine = TimeoutStateMachine(downstream: Downstream())
        _ = machine.receiveSubscription(RecordingSubscription())
        let timer = Timer()
        _ = machine.armed(1, timer: timer)
        guard case .schedule(let completion) = machine.receiveCompletion() else { Issue.record("ignored"); return }
        #expect(Self.same(completion, timer))
        guard case .ignore = machine.receiveCompletion() else { Issue.record("a second completion is ignored"); return }
        let event10 = machine.receiveValue()
        #expect(event10 == nil, "a value after the completion is ignored")
        let event11 = machine.deliverValue()
        #expect(event11 != nil, "a value scheduled before the completion is delivered")
        let event12 = machine.demandAfterDelivery()
        #expect(event12 == nil, "but upstream is not asked for more")
        let event13 = machine.deliverCompletion()
        #expect(event13 != nil)
        let event14 = machine.deliverCompletion()
        #expect(event14 == nil)
    }

    @Test func timeoutCancelWhileTheCompletionIsScheduledCancelsTheUpstream() throws {
        var machine = TimeoutStateMachine(downstream: Downstream())
        let upstream = RecordingSubscription()
        _ = machine.receiveSubscription(upstream)
        _ = machine.armed(1, timer: Timer())
        _ = machine.receiveCompletion()
        guard case .cancel(let cancelledTimer, let cancelledUpstream, _) = machine.cancel() else {
            Issue.record("not cancelled")
            return
        }
        #expect(Self.same(cancelledUpstream, upstream))
        #expect(cancelledTimer == nil, "the timer was stopped at the completion")
        #expect(Self.phaseName(machine.phase) == "terminated")
        let delivered = machine.deliverCompletion()
        #expect(delivered == nil, "the scheduled completion is dropped")
        guard case .none = machine.cancel() else { Issue.record("cancelled twice"); return }
    }

    // MARK: debounce

    @Test func debounceKeepsTheNewestValueAndDeliversOnlyWithDemand() throws {
        var machine = DebounceStateMachine(downstream: Downstream())
        let event15 = machine.receiveValue(0)
        #expect(event15 == nil, "ignored before the subscription")
        _ = machine.cancel()
        #expect(Self.phaseName(machine.phase) == "awaitingSubscription")
        let event16 = machine.receiveSubscription(RecordingSubscription())
        #expect(event16 != nil)
        let event17 = machine.receiveSubscription(RecordingSubscription())
        #expect(event17 == nil)
        let oneResult = machine.receiveValue(1)
        let one = try #require(oneResult)
        let oneTimer = Timer()
        let event18 = machine.armed(one, timer: oneTimer)
        #expect(event18 == nil)
        let twoResult = machine.receiveValue(2)
        let two = try #require(twoResult)
        let twoTimer = Timer()
        let previous = machine.armed(two, timer: twoTimer)
        #expect(Self.same(previous, oneTimer), "the previous timer is handed back")
        guard case .none = machine.fired(one) else { Issue.record("a replaced value's timer does nothing"); return }
        guard case .drop(let droppedTimer) = machine.fired(two) else { Issue.record("no demand: dropped"); return }
        #expect(Self.same(droppedTimer, twoTimer))
        #expect(machine.reflected.currentValue == nil)
        machine.request(.max(1))
        let threeResult = machine.receiveValue(3)
        let three = try #require(threeResult)
        guard case .deliver(_, let delivered, _) = machine.fired(three) else { Issue.record("not delivered"); return }
        #expect(delivered == 3)
        let event20 = machine.armed(three, timer: Timer())
        #expect(event20 != nil, "a timer armed after its value was sent is cancelled")
        #expect(machine.reflected.demand == .none)
    }

    @Test func debounceCompletionDropsThePendingValueUnlessAskedToKeepIt() throws {
        for keepLast in [false, true] {
            var machine = DebounceStateMachine(downstream: Downstream())
            _ = machine.receiveSubscription(RecordingSubscription())
            machine.request(.max(1))
            let generationResult = machine.receiveValue(5)
            let generation = try #require(generationResult)
            let timer = Timer()
            _ = machine.armed(generation, timer: timer)
            guard case .schedule(let completed) = machine.receiveCompletion(keepLast: keepLast) else {
                Issue.record("the completion is ignored")
                return
            }
            #expect(Self.same(completed, timer))
            let event21 = machine.receiveValue(6)
            #expect(event21 == nil)
            guard case .none = machine.fired(generation) else { Issue.record("fired after the completion"); return }
            guard case .deliver(_, let last) = machine.deliverCompletion() else { Issue.record("no completion"); return }
            #expect(last == (keepLast ? 5 : nil))
            #expect(Self.phaseName(machine.phase) == "terminated")
        }
    }

    // MARK: throttle

    typealias Throttle = ThrottleStateMachine<Downstream, VirtualTime>

    static func at(_ milliseconds: Int) -> VirtualTime { VirtualTime(nanoseconds: Int64(milliseconds) * 1_000_000) }

    @Test func throttleSchedulesAtTheEndOfTheWindowAndNeedsDemand() throws {
        var machine = Throttle(downstream: Downstream())
        let second = VirtualTime.Stride.seconds(1)
        let event23 = machine.receiveSubscription(RecordingSubscription())
        #expect(event23 != nil)
        let event24 = machine.receiveValue(1, now: Self.at(0), interval: second, latest: true)
        #expect(event24 == nil, "no demand: dropped")
        machine.request(.max(2))
        let event25 = machine.receiveValue(1, now: Self.at(0), interval: second, latest: true)
        #expect(event25 == .now)
        let event26 = machine.receiveValue(2, now: Self.at(0), interval: second, latest: true)
        #expect(event26 == nil)
        guard case .deliver(_, let emitted) = machine.emit(now: Self.at(10)) else { Issue.record("not emitted"); return }
        #expect(emitted == 2, "latest replaced the pending value")
        let event27 = machine.receiveValue(3, now: Self.at(400), interval: second, latest: false)
        #expect(event27 == .at(Self.at(1010)))
        let event28 = machine.receiveValue(4, now: Self.at(500), interval: second, latest: false)
        #expect(event28 == nil, "no demand left")
        let event29 = machine.receiveCompletion(.finished, subscription: Timer())
        #expect(event29 == .queued, "queued behind the pending value")
        guard case .deliverAndComplete(_, let last, _, let keepAlive) = machine.emit(now: Self.at(1010)) else {
            Issue.record("the completion is not queued behind the value")
            return
        }
        #expect(last == 3)
        #expect(keepAlive != nil, "the subscription was held for its completion")
        #expect(Self.phaseName(machine.phase) == "terminated")
    }

    @Test func throttleCompletionWithNothingPendingIsDeliveredOnItsOwn() throws {
        var machine = Throttle(downstream: Downstream())
        _ = machine.receiveSubscription(RecordingSubscription())
        let event30 = machine.receiveCompletion(.failure(.oops), subscription: Timer())
        #expect(event30 == .schedule)
        let event31 = machine.receiveCompletion(.finished, subscription: Timer())
        #expect(event31 == .ignore)
        guard case .none = machine.emit(now: Self.at(0)) else { Issue.record("emitted"); return }
        guard case .deliver(_, let delivered) = machine.deliverCompletion() else { Issue.record("not delivered"); return }
        #expect(delivered == .failure(.oops))
        guard case .none = machine.deliverCompletion() else { Issue.record("delivered twice"); return }
    }

    // MARK: collect(.byTime)

    typealias Collect = CollectByTimeStateMachine<TestSubscriber<[Int], TestError>, Int>

    @Test func collectSendsGroupsWhileThereIsDemandAndHoldsTheRest() throws {
        var machine = Collect(downstream: TestSubscriber(), count: 2)
        let event34 = machine.receiveValue(0)
        #expect(event34 == .ignore)
        let upstream = RecordingSubscription()
        let event35 = machine.receiveSubscription(upstream)
        #expect(event35 != nil)
        let event36 = machine.armed(Timer())
        #expect(event36 == nil)
        // While the subscription is handed down, a request only adds demand; once it is handed
        // down, upstream is asked for one value.
        guard case .none = machine.request(.none) else { Issue.record("asked while handing down"); return }
        #expect(Self.same(machine.handedDown(), upstream))
        let event37 = machine.receiveValue(1)
        #expect(event37 == .collected)
        let event38 = machine.receiveValue(2)
        #expect(event38 == .filledGroup, "a full group")
        let event39 = machine.receiveValue(3)
        #expect(event39 == .collected)
        guard case .idle = machine.flushStep(onlyFullGroups: true) else { Issue.record("sent without demand"); return }
        guard case .askUpstream(let forwardTo, let flush) = machine.request(.max(1)) else { Issue.record("not asked"); return }
        #expect(Self.same(forwardTo, upstream))
        #expect(flush, "a group is held")
        guard case .send(_, let group) = machine.flushStep(onlyFullGroups: false) else { Issue.record("no group"); return }
        #expect(group == [1, 2])
        guard case .idle = machine.flushStep(onlyFullGroups: false) else { Issue.record("sent beyond demand"); return }
        #expect(machine.reflected.buffered == 1)
    }

    @Test func collectFinishesOnceWhatIsLeftIsSentAndFailsAtOnce() throws {
        var machine = Collect(downstream: TestSubscriber(), count: nil)
        _ = machine.receiveSubscription(RecordingSubscription())
        let timer = Timer()
        _ = machine.armed(timer)
        _ = machine.receiveValue(1)
        guard case .flush = machine.receiveCompletion(.finished) else { Issue.record("no flush"); return }
        let event40 = machine.receiveValue(2)
        #expect(event40 == .ignore)
        guard case .flush = machine.request(.max(1)) else { Issue.record("no flush"); return }
        guard case .send(_, let group) = machine.flushStep(onlyFullGroups: false) else { Issue.record("no group"); return }
        #expect(group == [1])
        guard case .finish(_, let finishedTimer) = machine.flushStep(onlyFullGroups: false) else {
            Issue.record("not finished")
            return
        }
        #expect(Self.same(finishedTimer, timer))

        var failing = Collect(downstream: TestSubscriber(), count: nil)
        _ = failing.receiveSubscription(RecordingSubscription())
        _ = failing.receiveValue(1)
        guard case .fail = failing.receiveCompletion(.failure(.oops)) else { Issue.record("not failed"); return }
        #expect(Self.phaseName(failing.phase) == "terminated")
        guard case .ignore = failing.receiveCompletion(.finished) else { Issue.record("completed twice"); return }
    }
}
