import Streams
import StreamsTesting
import Testing

/// `catch` and `tryCatch` at the edges, driven by hand through
/// ``ManualUpstream``s for the upstream and the recovery publisher.
@Suite("catch / tryCatch at the edges")
struct CatchEdgeTests {
    /// An upstream, a recovery publisher and a subscriber, wired with `catch`.
    struct Rig {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let recovery = ManualUpstream<Int, TestError>(failure: .other) { $0 + 100 }
        let subscriber: TestSubscriber<Int, TestError>

        init(initialDemand: Subscribers.Demand? = .unlimited, demandPerValue: Subscribers.Demand = .none) {
            subscriber = TestSubscriber(initialDemand: initialDemand, demandPerValue: demandPerValue)
            let recovery = self.recovery
            upstream.catch { _ in recovery }.subscribe(subscriber)
        }

        var upstreamSubscription: ManualSubscription { upstream.subscriptions[0] }
        var recoverySubscription: ManualSubscription { recovery.subscriptions[0] }
    }

    @Test func bothSidesReportTheOneInner() throws {
        let rig = Rig()
        rig.upstream.ignoresCancel = true  // keeps the subscriber after the failure
        rig.upstream.fail()
        let inner = try #require(rig.upstream.subscriber as? any Subscriber)
        let link = try #require(rig.recovery.subscriber as? any Subscriber)
        let handedDown = try #require(rig.subscriber.subscription)
        let same = (inner as AnyObject) === (handedDown as AnyObject)
        #expect(same)
        #expect(link.combineIdentifier == inner.combineIdentifier)
        for side in [inner as Any, link as Any] {
            #expect(String(describing: side) == "Catch")
            #expect((side as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Catch")
            #expect(Mirror(reflecting: side).children.map(\.label) == ["downstream", "demand"])
            #expect(!(side is any CustomDebugStringConvertible))
        }
    }

    @Test func tryCatchDescribesItselfAsTryCatch() throws {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        upstream.tryCatch { _ in Just(0) }.subscribe(TestSubscriber<Int, any Error>())
        #expect(String(describing: try #require(upstream.subscriber)) == "TryCatch")
    }

    @Test func eachUpstreamValueTakesOneAndTheReturnedDemandIsAddedAndReturned() {
        let rig = Rig(initialDemand: .max(2), demandPerValue: .max(1))
        #expect(rig.upstreamSubscription.requests == [.max(2)])
        #expect(rig.upstream.send(1) == .max(1))
        #expect(rig.upstream.send(2) == .max(1))
        #expect(rig.upstream.send(3) == .max(1))
        // Outstanding: 2 - 3 + 3 = 2, which the recovery is asked for.
        rig.upstream.fail()
        #expect(rig.recoverySubscription.requests == [.max(2)])
        #expect(rig.subscriber.values == [1, 2, 3])
    }

    @Test func theRecoveryIsAskedForWhatIsLeft() {
        let rig = Rig(initialDemand: .max(3))
        rig.upstream.send(1)
        rig.upstream.fail()
        #expect(rig.recoverySubscription.requests == [.max(2)])
    }

    @Test func theRecoveryIsNotAskedWhenNothingIsLeft() {
        let rig = Rig(initialDemand: .max(1))
        rig.upstream.send(1)
        rig.upstream.fail()
        #expect(rig.recoverySubscription.requests == [])
    }

    @Test func aRequestWhileAwaitingTheRecoveryIsAddedUp() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let recovery = ManualUpstream<Int, TestError>(failure: .other) { $0 }
        recovery.holdsSubscription = true
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        upstream.catch { _ in recovery }.subscribe(subscriber)
        upstream.fail()
        subscriber.request(.max(2))
        subscriber.request(.max(3))
        let late = recovery.sendSubscription()
        #expect(late?.requests == [.max(6)])
        subscriber.request(.max(4))
        #expect(late?.requests == [.max(6), .max(4)])
    }

    @Test func recoveryValuesPassWithoutDemandAndReturnTheDownstreamsDemand() {
        let rig = Rig(initialDemand: .max(1), demandPerValue: .max(7))
        rig.upstream.fail()
        #expect(rig.recovery.send(1) == .max(7))
        #expect(rig.recovery.send(2) == .max(7))
        #expect(rig.subscriber.values == [101, 102])
    }

    @Test func theRecoveryCompletionIsForwardedOnce() {
        let rig = Rig()
        rig.recovery.ignoresCancel = true
        rig.upstream.fail()
        rig.recovery.finish()
        rig.recovery.fail()
        rig.recovery.send(5)
        #expect(rig.subscriber.completions == [.finished])
        #expect(rig.subscriber.values == [])
    }

    @Test func theRecoveryFailureGoesDownstream() {
        let rig = Rig()
        rig.upstream.fail()
        rig.recovery.fail()
        #expect(rig.subscriber.completions == [.failure(.other)])
    }

    @Test func finishedIsForwardedOnlyFromTheUpstreamPhase() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        upstream.holdsSubscription = true
        upstream.ignoresCancel = true
        let recovery = ManualUpstream<Int, TestError>(failure: .other) { $0 }
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.catch { _ in recovery }.subscribe(subscriber)
        upstream.finish()  // before the subscription: ignored
        #expect(subscriber.events.isEmpty)
        upstream.sendSubscription()
        upstream.fail()
        upstream.finish()  // during the recovery: ignored
        #expect(subscriber.completions == [])
        recovery.finish()
        #expect(subscriber.completions == [.finished])
    }

    @Test func theUpstreamFinishingIsForwarded() {
        let rig = Rig()
        rig.upstream.send(1)
        rig.upstream.finish()
        #expect(rig.subscriber.values == [1])
        #expect(rig.subscriber.completions == [.finished])
        #expect(rig.recovery.subscriptions.isEmpty)
    }

    @Test func aThrowingHandlerFailsWithItsErrorAndDoesNotCancelTheUpstream() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        upstream.ignoresCancel = true
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryCatch { _ -> Just<Int> in throw TestError.other }.subscribe(subscriber)
        upstream.fail()
        #expect(subscriber.completions.count == 1)
        if case .failure(let error) = subscriber.completion {
            #expect(error as? TestError == .other)
        } else {
            Issue.record("expected the thrown error, got \(String(describing: subscriber.completion))")
        }
        #expect(upstream.subscriptions[0].cancels == 0)
        // Streams ignores what the upstream sends after that (Combine passes values on).
        upstream.send(1)
        #expect(subscriber.values == [])
    }

    /// Once the handler threw, the operator is done: a second upstream failure (or a
    /// `.finished`) is ignored, as in Combine, not taken for a failure during the recovery.
    @Test func completionsAfterTheHandlerThrewAreIgnored() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        upstream.ignoresCancel = true
        let subscriber = TestSubscriber<Int, any Error>()
        let calls = Log<TestError>()
        upstream.tryCatch { error -> Just<Int> in
            calls.append(error)
            throw TestError.other
        }
        .subscribe(subscriber)
        upstream.fail()
        upstream.fail()
        upstream.finish()
        #expect(calls.items == [.oops])
        #expect(subscriber.completions.count == 1)
    }

    /// Once the recovery completed, a late upstream failure is ignored, as in Combine.
    @Test func anUpstreamFailureAfterTheRecoveryCompletedIsIgnored() {
        let rig = Rig()
        rig.upstream.ignoresCancel = true
        rig.upstream.fail()
        rig.recovery.finish()
        rig.upstream.fail()
        #expect(rig.subscriber.completions == [.finished])
        #expect(rig.recovery.subscriptions.count == 1)
    }

    @Test func aCancelBeforeTheSubscriptionChangesNothing() throws {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        upstream.holdsSubscription = true
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        upstream.catch { _ in Empty() }.subscribe(subscriber)
        let inner = try #require(upstream.subscriber as? any Subscription)
        inner.cancel()
        let late = upstream.sendSubscription()
        #expect(subscriber.subscriptionCount == 1)
        #expect(late?.requests == [.max(1)])
        #expect(late?.cancels == 0)
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let rig = Rig()
        let extra = rig.upstream.sendSecondSubscription()
        #expect(extra.cancels == 1)
        #expect(rig.subscriber.subscriptionCount == 1)
    }

    @Test func cancelReachesTheActiveSide() {
        let first = Rig()
        first.subscriber.cancel()
        #expect(first.upstreamSubscription.cancels == 1)
        let second = Rig()
        second.upstream.fail()
        second.subscriber.cancel()
        #expect(second.upstreamSubscription.cancels == 0)
        #expect(second.recoverySubscription.cancels == 1)
    }

    /// Combine loses a cancel made while the recovery is being subscribed; Streams
    /// cancels the recovery's subscription when it arrives.
    @Test func aCancelWhileAwaitingTheRecoveryCancelsItsSubscription() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let recovery = ManualUpstream<Int, TestError>(failure: .other) { $0 }
        recovery.holdsSubscription = true
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.catch { _ in recovery }.subscribe(subscriber)
        upstream.fail()
        subscriber.cancel()
        let late = recovery.sendSubscription()
        #expect(late?.cancels == 1)
        #expect(late?.requests == [])
        recovery.send(1)
        recovery.finish()
        #expect(subscriber.values == [])
        #expect(subscriber.completions == [])
    }

    /// A deliberate difference: after a cancel Combine keeps passing upstream values on (and so
    /// keeps the downstream); Streams lets go of the downstream and ignores them.
    @Test func nothingIsPassedOnAfterACancelAndTheDownstreamIsLetGo() {
        weak var released: TestSubscriber<Int, TestError>?
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        upstream.ignoresCancel = true
        do {
            let subscriber = TestSubscriber<Int, TestError>()
            released = subscriber
            upstream.catch { _ in Empty() }.subscribe(subscriber)
            subscriber.cancel()
            upstream.send(1)
            upstream.fail()
            #expect(subscriber.events.count == 1)
        }
        #expect(released == nil)
    }

    @Test func aValueWithoutDemandTraps() async {
        let trap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
            upstream.catch { _ in Empty() }.subscribe(TestSubscriber<Int, TestError>(initialDemand: .max(1)))
            upstream.send(1)
            upstream.send(2)
        }
        MisuseTests.expectMessage("received a value without demand", in: trap)
    }

    @Test func aValueBeforeTheSubscriptionTraps() async {
        let trap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
            upstream.holdsSubscription = true
            upstream.catch { _ in Empty() }.subscribe(TestSubscriber<Int, TestError>())
            upstream.send(1)
        }
        MisuseTests.expectMessage("received a value without demand", in: trap)
    }

    @Test func aFailureBeforeTheSubscriptionTraps() async {
        let trap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
            upstream.holdsSubscription = true
            upstream.catch { _ in Empty() }.subscribe(TestSubscriber<Int, TestError>())
            upstream.fail()
        }
        MisuseTests.expectMessage("Unexpected state: received completion but do not have subscription", in: trap)
    }

    /// A second upstream failure while the recovery is subscribed traps, as in Combine.
    @Test func aSecondFailureDuringTheRecoveryTraps() async {
        let trap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let rig = Rig()
            rig.upstream.ignoresCancel = true
            rig.upstream.fail()
            rig.upstream.fail()
        }
        MisuseTests.expectMessage("Unexpected state: received completion but do not have subscription", in: trap)
    }

    @Test func aFailureFromInsideTheHandlerTraps() async {
        let trap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
            upstream.ignoresCancel = true
            upstream.catch { _ -> Empty<Int, TestError> in
                upstream.fail()
                return Empty()
            }
            .subscribe(TestSubscriber<Int, TestError>())
            upstream.fail()
        }
        MisuseTests.expectMessage("Unexpected state: received completion but do not have subscription", in: trap)
    }

    @Test func zeroDemandTraps() async {
        let trap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
            PassthroughSubject<Int, TestError>().catch { _ in Empty() }.subscribe(subscriber)
            subscriber.request(.none)
        }
        MisuseTests.expectMessage("API Violation: demand must not be zero", in: trap)
    }

    @Test func aRequestBeforeTheSubscriptionTraps() async {
        let trap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
            upstream.holdsSubscription = true
            upstream.catch { _ in Empty() }.subscribe(TestSubscriber<Int, TestError>())
            (upstream.subscriber as? any Subscription)?.request(.max(1))
        }
        MisuseTests.expectMessage("Unexpected state: request before subscription sent", in: trap)
    }

    @Test func failCatchJustStillDelivers() {
        let subscriber = TestSubscriber<Int, Never>()
        Fail<Int, TestError>(error: .oops).catch { _ in Just(7) }.subscribe(subscriber)
        #expect(subscriber.values == [7])
        #expect(subscriber.completions == [.finished])
    }
}
