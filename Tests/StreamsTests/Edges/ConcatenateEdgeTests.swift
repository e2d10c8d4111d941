@testable import Streams
import StreamsTesting
import Testing

/// `append` and `prepend` (`Publishers.Concatenate`) at the edges.
@Suite("append / prepend at the edges")
struct ConcatenateEdgeTests {
    /// A prefix, a suffix and a subscriber, wired with `append`.
    struct Rig {
        let prefix = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let suffix = ManualUpstream<Int, TestError>(failure: .other) { $0 + 100 }
        let subscriber: TestSubscriber<Int, TestError>

        init(initialDemand: Subscribers.Demand? = .unlimited, demandPerValue: Subscribers.Demand = .none) {
            subscriber = TestSubscriber(initialDemand: initialDemand, demandPerValue: demandPerValue)
        }

        func start() {
            prefix.append(suffix).subscribe(subscriber)
        }

        typealias Side = ManualUpstream<Int, TestError>
        typealias PrefixSide = ConcatenatePrefixSubscriber<Side, Side, TestSubscriber<Int, TestError>>

        /// The subscriber the prefix received, while the prefix holds it.
        var prefixSide: PrefixSide? { prefix.subscriber as? PrefixSide }
    }

    @Test func threeObjectsOfThreeTypesReportTheOneInner() throws {
        let rig = Rig()
        rig.prefix.ignoresCancel = true  // keeps the subscriber after the completion
        rig.start()
        let handedDown = try #require(rig.subscriber.subscription)
        let prefixSide = try #require(rig.prefix.subscriber as? any Subscriber)
        #expect(rig.suffix.subscriber == nil)
        #expect(prefixSide.combineIdentifier == handedDown.combineIdentifier)
        rig.prefix.finish()
        let suffixSide = try #require(rig.suffix.subscriber as? any Subscriber)
        #expect(suffixSide.combineIdentifier == handedDown.combineIdentifier)
        // As in Combine, the downstream's subscription subscribes to neither side itself.
        #expect(type(of: handedDown) != type(of: prefixSide))
        #expect(type(of: handedDown) != type(of: suffixSide))
        #expect(type(of: prefixSide) != type(of: suffixSide))
        for side in [handedDown as Any, prefixSide as Any, suffixSide as Any] {
            #expect(String(describing: side) == "Concatenate")
            #expect((side as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Concatenate")
            #expect(Mirror(reflecting: side).children.isEmpty)
        }
    }

    @Test func prefixValuesBeyondTheDemandAreDropped() {
        let rig = Rig(initialDemand: .max(2))
        rig.start()
        #expect(rig.prefix.send(1) == .none)
        #expect(rig.prefix.send(2) == .none)
        #expect(rig.prefix.send(3) == .none)
        #expect(rig.subscriber.values == [1, 2])
        // The dropped value took nothing: a new request lets the next one through.
        rig.subscriber.request(.max(1))
        rig.prefix.send(4)
        #expect(rig.subscriber.values == [1, 2, 4])
    }

    @Test func theReturnedDemandIsAddedAndReturned() {
        let rig = Rig(initialDemand: .max(1), demandPerValue: .max(1))
        rig.start()
        #expect(rig.prefix.send(1) == .max(1))
        #expect(rig.prefix.send(2) == .max(1))
        #expect(rig.subscriber.values == [1, 2])
    }

    @Test func eventsBeforeThePrefixSubscriptionAreIgnored() {
        let rig = Rig()
        rig.prefix.holdsSubscription = true
        rig.prefix.ignoresCancel = true
        rig.start()
        rig.prefix.send(1)
        rig.prefix.finish()
        #expect(rig.subscriber.events.isEmpty)
        #expect(rig.suffix.subscriptions.isEmpty)
        rig.prefix.sendSubscription()
        rig.prefix.send(2)
        #expect(rig.subscriber.values == [2])
    }

    @Test func theSuffixIsAskedForTheRemainingDemand() {
        let rig = Rig(initialDemand: .max(5))
        rig.start()
        rig.prefix.send(1)
        rig.prefix.send(2)
        rig.prefix.finish()
        #expect(rig.suffix.subscriptions[0].requests == [.max(3)])
    }

    @Test func theSuffixIsNotAskedWhenNothingRemains() {
        let rig = Rig(initialDemand: .max(1))
        rig.start()
        rig.prefix.send(1)
        rig.prefix.finish()
        #expect(rig.suffix.subscriptions[0].requests == [])
        rig.subscriber.request(.max(2))
        #expect(rig.suffix.subscriptions[0].requests == [.max(2)])
    }

    @Test func suffixEventsBeforeItsSubscriptionAreIgnoredAndItsCompletionGoesOnce() {
        let rig = Rig()
        rig.suffix.holdsSubscription = true
        rig.suffix.ignoresCancel = true
        rig.start()
        rig.prefix.finish()
        rig.suffix.send(1)
        #expect(rig.subscriber.values == [])
        rig.suffix.sendSubscription()
        rig.suffix.send(2)
        rig.suffix.finish()
        rig.suffix.fail()
        rig.suffix.send(3)
        #expect(rig.subscriber.values == [102])
        #expect(rig.subscriber.completions == [.finished])
    }

    @Test func aPrefixFailureEndsTheStream() {
        let rig = Rig()
        rig.start()
        rig.prefix.fail()
        #expect(rig.subscriber.completions == [.failure(.oops)])
        #expect(rig.suffix.subscriptions.isEmpty)
    }

    @Test func requestsGoToTheActiveSideAndZeroIsAllowed() {
        let rig = Rig(initialDemand: nil)
        rig.start()
        rig.subscriber.request(.none)
        rig.subscriber.request(.max(2))
        #expect(rig.prefix.subscriptions[0].requests == [.none, .max(2)])
        rig.prefix.finish()
        rig.subscriber.request(.none)
        #expect(rig.suffix.subscriptions[0].requests == [.max(2), .none])
    }

    @Test func aCancelReachesTheActiveSideAndDropsTheSuffix() {
        let rig = Rig()
        rig.prefix.ignoresCancel = true
        rig.start()
        rig.subscriber.cancel()
        #expect(rig.prefix.subscriptions[0].cancels == 1)
        rig.prefix.finish()
        #expect(rig.suffix.subscriptions.isEmpty)
        #expect(rig.subscriber.completions == [])

        let second = Rig()
        second.start()
        second.prefix.finish()
        second.subscriber.cancel()
        #expect(second.suffix.subscriptions[0].cancels == 1)
    }

    @Test func aSubscriptionAfterAnEarlyCancelIsCancelled() throws {
        let rig = Rig()
        rig.prefix.holdsSubscription = true
        rig.start()
        // Only the operator's own object can cancel before the downstream has a subscription.
        try #require(rig.prefixSide).parent.cancel()
        let late = rig.prefix.sendSubscription()
        #expect(late?.cancels == 1)
        #expect(rig.subscriber.subscriptionCount == 0)
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let rig = Rig()
        rig.start()
        #expect(rig.prefix.sendSecondSubscription().cancels == 1)
        #expect(rig.subscriber.subscriptionCount == 1)
    }

    @Test func prependKeepsTheOrder() {
        let subscriber = TestSubscriber<Int, Never>()
        [3, 4].publisher.prepend(1, 2).subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3, 4])
        #expect(subscriber.completions == [.finished])
    }
}
