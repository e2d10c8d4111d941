@testable import Streams
import Dispatch
import Synchronization
import Testing

/// The lock-free value path on its own: what passes when, who lets the downstream go, and when.
@Suite struct ValueLaneTests {
    /// A downstream that records values and can act from inside `receive(_:)`.
    final class Recorder: Subscriber, @unchecked Sendable {
        var values: [Int] = []
        var onValue: ((Int) -> Void)?
        let demand: Subscribers.Demand

        init(demand: Subscribers.Demand = .max(1)) { self.demand = demand }

        func receive(subscription: any Subscription) {}
        func receive(_ input: Int) -> Subscribers.Demand {
            values.append(input)
            onValue?(input)
            return demand
        }
        func receive(completion: Subscribers.Completion<Never>) {}
    }

    /// The lane, in an object that closures can share (the lane itself cannot be copied).
    final class Lane: @unchecked Sendable {
        let lane: ValueLane<Recorder>
        init(_ recorder: Recorder) { lane = ValueLane(recorder) }
        func open() { lane.open() }
        func deliver(_ value: Int) -> Subscribers.Demand? { lane.deliver(value) }
        func close() { lane.close() }
    }

    /// Holds an object without keeping it alive.
    final class Weak<Object: AnyObject>: @unchecked Sendable {
        weak var object: Object?
        init(_ object: Object) { self.object = object }
    }

    /// A lane whose downstream only the lane keeps alive, and a weak reference to that downstream.
    static func trackedLane() -> (Lane, Weak<Recorder>) {
        let recorder = Recorder()
        return (Lane(recorder), Weak(recorder))
    }

    @Test func nothingPassesBeforeOpenOrAfterClose() {
        let recorder = Recorder()
        let lane = Lane(recorder)
        #expect(lane.deliver(1) == nil)
        lane.open()
        #expect(lane.deliver(2) == .max(1))
        lane.close()
        #expect(lane.deliver(3) == nil)
        lane.open()
        #expect(lane.deliver(4) == nil)
        #expect(recorder.values == [2])
    }

    @Test func closingAnIdleLaneLetsTheDownstreamGoAtOnce() {
        let (lane, downstream) = Self.trackedLane()
        lane.open()
        #expect(downstream.object != nil)
        lane.close()
        #expect(downstream.object == nil)
        lane.close()
        #expect(lane.deliver(1) == nil)
    }

    @Test func aLaneThatGoesAwayUnclosedLetsTheDownstreamGo() {
        weak var released: Recorder?
        do {
            let recorder = Recorder()
            released = recorder
            let lane = Lane(recorder)
            lane.open()
            #expect(lane.deliver(1) == .max(1))
        }
        #expect(released == nil)
    }

    @Test func aCloseDuringADeliveryLetsGoWhenTheDeliveryReturns() {
        let (lane, downstream) = Self.trackedLane()
        var stillHeldInside = false
        lane.open()
        downstream.object?.onValue = { [unowned lane] _ in
            lane.close()
            stillHeldInside = downstream.object != nil
        }
        #expect(lane.deliver(1) == .max(1))
        #expect(stillHeldInside)
        #expect(downstream.object == nil)
    }

    /// A value that arrives after the close, while the delivery that saw the close is still
    /// under way, is counted and turned away: the last delivery out lets the downstream go, once.
    @Test func aValueAfterTheCloseDuringADeliveryIsTurnedAwayAndLetsGoNothingTwice() {
        let (lane, downstream) = Self.trackedLane()
        var lateTurnedAway = false
        var heldAfterLate = false
        lane.open()
        downstream.object?.onValue = { [unowned lane] _ in
            lane.close()
            lateTurnedAway = lane.deliver(2) == nil
            heldAfterLate = downstream.object != nil
        }
        #expect(lane.deliver(1) == .max(1))
        #expect(lateTurnedAway)
        #expect(heldAfterLate)
        #expect(downstream.object == nil)
        // Later values look in and go away without letting anything go again.
        #expect(lane.deliver(3) == nil)
        #expect(lane.deliver(4) == nil)
    }

    /// A downstream that asks for more inside `receive(_:)` may get the next value before it
    /// returns: the nested delivery passes, and a close inside it waits for the outer one.
    @Test func nestedDeliveriesPassAndTheOutermostLetsGo() {
        let (lane, downstream) = Self.trackedLane()
        var heldAfterInner = false
        lane.open()
        downstream.object?.onValue = { [unowned lane] value in
            switch value {
            case 1:
                _ = lane.deliver(2)
                heldAfterInner = downstream.object != nil
            case 2:
                _ = lane.deliver(3)
                lane.close()
            default:
                break
            }
        }
        #expect(lane.deliver(1) == .max(1))
        #expect(heldAfterInner)
        #expect(downstream.object == nil)
    }

    /// One thread delivers while another closes: every delivery either passes whole or not at
    /// all, none passes after the close returned, and the downstream is let go exactly once.
    @Test func aCloseRacingDeliveriesLetsGoOnceAndStopsThem() {
        for _ in 0..<200 {
            let (lane, downstream) = Self.trackedLane()
            lane.open()
            let closed = Atomic<Bool>(false)
            let afterClose = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    for value in 0..<500 {
                        let wasClosed = closed.load(ordering: .acquiring)
                        if lane.deliver(value) != nil && wasClosed { afterClose.add(1, ordering: .relaxed) }
                    }
                } else {
                    lane.close()
                    closed.store(true, ordering: .releasing)
                }
            }
            #expect(afterClose.load(ordering: .relaxed) == 0)
            #expect(downstream.object == nil)
        }
    }
}
