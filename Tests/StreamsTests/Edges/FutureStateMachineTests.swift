@testable import Streams
import StreamsTesting
import Testing

/// The future's two state machines on their own: the publisher's (pending, resolved) and one
/// subscription's (subscribing, awaiting a result, awaiting demand, terminated).
@Suite struct FutureStateMachineTests {
    typealias Downstream = TestSubscriber<Int, TestError>
    typealias Conduit = FutureConduitStateMachine

    let future = Future<Int, TestError> { _ in }

    func conduit() -> FutureConduit<Downstream> {
        FutureConduit(downstream: Downstream(initialDemand: nil), parent: future)
    }

    func phaseName(_ machine: Conduit) -> String {
        switch machine.phase {
        case .subscribing(_, _, let result, let demanded):
            "subscribing" + (result == nil ? "" : ", result") + (demanded ? ", demanded" : "")
        case .awaitingResult(_, _, let demanded): "awaitingResult" + (demanded ? ", demanded" : "")
        case .awaitingDemand: "awaitingDemand"
        case .terminated(let demanded, let parent):
            "terminated" + (demanded ? ", demanded" : "") + (parent == nil ? "" : ", parent")
        }
    }

    /// A new conduit machine, subscribing.
    func subscribing() -> Conduit {
        Conduit(downstream: Box(Downstream(initialDemand: nil)), parent: future)
    }

    /// A conduit machine whose subscription has been handed over.
    func subscribed() -> Conduit {
        var machine = subscribing()
        #expect(machine.subscriber != nil)
        #expect(machine.handedOver() == nil)
        return machine
    }

    // MARK: The publisher

    /// What a publisher's machine keeps as a result, read back.
    func result(_ resolution: FutureStateMachine.Resolution?) -> Result<Int, TestError>? {
        resolution.map(Future<Int, TestError>.result(of:))
    }

    @Test func pendingCollectsSubscribersAndTheFirstResultWins() {
        var machine = FutureStateMachine()
        let first = conduit()
        let second = conduit()
        #expect(machine.subscribe(first) == nil)
        #expect(machine.subscribe(second) == nil)
        machine.remove(first)
        let waiting = machine.fulfill(.success(Box(1)))
        #expect(waiting?.count == 1)
        #expect(waiting?.first === second)
        #expect(machine.fulfill(.success(Box(2))) == nil)
        #expect(result(machine.result) == .success(1))
    }

    @Test func aResolvedFutureHandsItsResultToLateSubscribers() {
        var machine = FutureStateMachine()
        #expect(machine.result == nil)
        _ = machine.fulfill(.failure(Box(TestError.oops)))
        #expect(result(machine.subscribe(conduit())) == .failure(TestError.oops))
        machine.remove(conduit())
        #expect(result(machine.subscribe(conduit())) == .failure(TestError.oops))
    }

    // MARK: One subscription

    @Test func aSuccessWaitsForDemandThenGoesOnce() {
        var machine = subscribed()
        #expect(phaseName(machine) == "awaitingResult")
        #expect(machine.fulfill(.success) == nil)
        #expect(phaseName(machine) == "awaitingDemand")
        #expect(!machine.hasAnyDemand)
        let delivery = machine.request()
        #expect(delivery?.parent === future)
        #expect(delivery?.thenLetsParentGo == false)
        // A request sent the value: the future stays.
        #expect(phaseName(machine) == "terminated, parent")
        #expect(machine.parent === future)
        #expect(machine.downstream == nil)
        #expect(!machine.hasAnyDemand)
        #expect(machine.request() == nil)
        #expect(machine.cancel().parent == nil)
        #expect(phaseName(machine) == "terminated, demanded, parent")
    }

    @Test func demandFirstThenTheSuccessGoesAtOnce() {
        var machine = subscribed()
        #expect(machine.request() == nil)
        #expect(machine.hasAnyDemand)
        #expect(machine.parent === future)
        let delivery = machine.fulfill(.success)
        #expect(delivery?.parent === future)
        #expect(delivery?.thenLetsParentGo == true)
        // The future stays while the value goes out, and goes once it is delivered.
        #expect(phaseName(machine) == "terminated, parent")
        #expect(machine.delivered() === future)
        #expect(phaseName(machine) == "terminated")
        #expect(machine.parent == nil)
    }

    @Test func aFailureGoesWithoutDemand() {
        var machine = subscribed()
        #expect(machine.fulfill(.failure) != nil)
        #expect(phaseName(machine) == "terminated, parent")
        #expect(machine.delivered() === future)
        #expect(phaseName(machine) == "terminated")
    }

    @Test func whatArrivesWhileSubscribingWaitsForTheHandOver() {
        var machine = subscribing()
        #expect(machine.fulfill(.success) == nil)
        #expect(machine.request() == nil)
        #expect(phaseName(machine) == "subscribing, result, demanded")
        let delivery = machine.handedOver()
        #expect(delivery?.parent === future)
        #expect(delivery?.thenLetsParentGo == false)
        #expect(phaseName(machine) == "terminated, parent")

        var withoutDemand = subscribing()
        #expect(withoutDemand.fulfill(.success) == nil)
        #expect(withoutDemand.handedOver() == nil)
        #expect(phaseName(withoutDemand) == "awaitingDemand")
    }

    @Test func cancelLetsGoAndKeepsTheDemandFlag() {
        var machine = subscribed()
        _ = machine.request()
        let remains = machine.cancel()
        #expect(remains.parent === future)
        #expect(phaseName(machine) == "terminated, demanded")
        #expect(machine.parent == nil)
        #expect(machine.downstream == nil)
        #expect(machine.fulfill(.success) == nil)
        #expect(machine.cancel().parent == nil)

        var beforeHandOver = subscribing()
        #expect(beforeHandOver.cancel().parent != nil)
        #expect(beforeHandOver.subscriber == nil)
        #expect(beforeHandOver.handedOver() == nil)
    }

    @Test func aSecondResultIsAnInternalInconsistency() async {
        await #expect(processExitsWith: .failure) {
            var machine = Conduit(downstream: Box(Downstream(initialDemand: nil)), parent: Future<Int, TestError> { _ in })
            _ = machine.handedOver()
            _ = machine.fulfill(.success)
            _ = machine.fulfill(.success)
        }
    }

    @Test func aSecondHandOverIsAnInternalInconsistency() async {
        await #expect(processExitsWith: .failure) {
            var machine = Conduit(downstream: Box(Downstream(initialDemand: nil)), parent: Future<Int, TestError> { _ in })
            _ = machine.handedOver()
            _ = machine.handedOver()
        }
    }

    @Test func theEndOfADeliveryWhileLiveIsAnInternalInconsistency() async {
        await #expect(processExitsWith: .failure) {
            var machine = Conduit(downstream: Box(Downstream(initialDemand: nil)), parent: Future<Int, TestError> { _ in })
            _ = machine.handedOver()
            _ = machine.delivered()
        }
    }
}

extension FutureConduitStateMachine.CancelAction {
    /// The future the cancel hands out, if any.
    fileprivate var parent: AnyObject? {
        if case .release(_, let parent) = self { parent } else { nil }
    }
}
