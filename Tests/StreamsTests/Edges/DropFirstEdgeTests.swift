@testable import Streams
import StreamsTesting
import Testing

/// `dropFirst(_:)` at the edges, as in Combine: the downstream holds its subscription
/// before the upstream is subscribed, the upstream is asked for the values to drop up front, and
/// dropped values ask for nothing more.
@Suite struct DropFirstEdgeTests {
    private static func upstream() -> ManualUpstream<Int, TestError> {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        upstream.holdsSubscription = true
        return upstream
    }

    @Test func theDownstreamHasItsSubscriptionBeforeTheUpstreamIsSubscribed() throws {
        let upstream = Self.upstream()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        upstream.dropFirst().subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(subscription as AnyObject === upstream.subscriber as AnyObject)
        #expect(String(describing: subscription) == "Drop")
        #expect((subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Drop")
        #expect(Mirror(reflecting: subscription).children.isEmpty)
    }

    @Test func demandRequestedEarlyIsAskedTogetherWithTheCount() throws {
        let upstream = Self.upstream()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2))
        upstream.dropFirst(2).subscribe(subscriber)
        subscriber.request(.max(3))
        let subscription = try #require(upstream.sendSubscription())
        #expect(subscription.requests == [.max(7)])
        subscriber.request(.max(1))
        #expect(subscription.requests == [.max(7), .max(1)])
    }

    @Test func theCountIsAskedForEvenWithoutDownstreamDemand() throws {
        let upstream = Self.upstream()
        upstream.dropFirst(3).subscribe(TestSubscriber<Int, TestError>(initialDemand: nil))
        #expect(try #require(upstream.sendSubscription()).requests == [.max(3)])

        let none = Self.upstream()
        none.dropFirst(0).subscribe(TestSubscriber<Int, TestError>(initialDemand: nil))
        #expect(try #require(none.sendSubscription()).requests.isEmpty)

        let unlimited = Self.upstream()
        unlimited.dropFirst(3).subscribe(TestSubscriber<Int, TestError>())
        #expect(try #require(unlimited.sendSubscription()).requests == [.unlimited])
    }

    @Test func droppedValuesAskForNothingMore() {
        let upstream = Self.upstream()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(5), demandPerValue: .max(1))
        upstream.dropFirst(2).subscribe(subscriber)
        upstream.sendSubscription()
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(3) == .max(1))
        #expect(subscriber.values == [3])
    }

    @Test func valuesBeforeTheUpstreamSubscriptionAreCountedAndForwarded() {
        let upstream = Self.upstream()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.dropFirst(1).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        #expect(subscriber.values == [2])
        upstream.sendSubscription()
        upstream.send(3)
        #expect(subscriber.values == [2, 3])
    }

    @Test func aCompletionBeforeTheUpstreamSubscriptionIsForwardedAndEndsTheStage() throws {
        let upstream = Self.upstream()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.dropFirst().subscribe(subscriber)
        let inner = try #require(upstream.subscriber as? any Subscriber<Int, TestError>)
        inner.receive(completion: .finished)
        #expect(subscriber.completions.count == 1)
        // Combine accepts a new upstream subscription after a completion; Streams
        // does not: the stage has ended.
        let late = try #require(upstream.sendSubscription())
        #expect(late.cancels == 1)
        inner.receive(completion: .failure(.oops))
        #expect(subscriber.completions.count == 1)
    }

    @Test func aSecondSubscriptionIsCancelled() throws {
        let upstream = Self.upstream()
        upstream.dropFirst().subscribe(TestSubscriber<Int, TestError>())
        let first = try #require(upstream.sendSubscription())
        let second = upstream.sendSecondSubscription()
        #expect(second.cancels == 1)
        #expect(first.cancels == 0)
    }

    @Test func cancelAfterTheUpstreamSubscriptionCancelsItOnce() throws {
        let upstream = Self.upstream()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.dropFirst().subscribe(subscriber)
        let subscription = try #require(upstream.sendSubscription())
        subscriber.cancel()
        subscriber.cancel()
        #expect(subscription.cancels == 1)
        subscriber.request(.max(1))
        #expect(subscription.requests == [.unlimited])
    }

    @Test func aNegativeCountTrapsWhenTheUpstreamSubscriptionArrives() async {
        let upstream = Self.upstream()
        upstream.dropFirst(-1).subscribe(TestSubscriber<Int, TestError>())
        await #expect(processExitsWith: .failure) {
            let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
            upstream.holdsSubscription = true
            upstream.dropFirst(-1).subscribe(TestSubscriber<Int, TestError>())
            upstream.sendSubscription()
        }
    }

    // MARK: The state machine on its own

    @Test func stateMachinePhases() {
        var machine = DropFirstStateMachine(count: 1, downstream: TestSubscriber<Int, TestError>())
        #expect(machine.request(.max(2)) == nil)
        guard case .none = machine.cancel() else {
            Issue.record("a cancel before the upstream subscription must not end the stage")
            return
        }
        guard case .request(let demand) = machine.receiveSubscription(ManualSubscription()) else {
            Issue.record("the first subscription must be kept")
            return
        }
        #expect(demand == .max(3))
        guard case .cancel = machine.receiveSubscription(ManualSubscription()) else {
            Issue.record("a second subscription must be cancelled")
            return
        }
        #expect(machine.receiveValue() == .drop)
        #expect(machine.receiveValue() == .forward)
        #expect(machine.request(.max(1)) != nil)
        let first = machine.receiveCompletion()
        let second = machine.receiveCompletion()
        #expect(first && !second)
        #expect(machine.receiveValue() == .ignore)
        #expect(machine.request(.max(1)) == nil)
        guard case .none = machine.cancel() else {
            Issue.record("a cancel after the end must do nothing")
            return
        }
    }
}

/// The filter family's inner ("producer") traps on a request that arrives before it has handed
/// a subscription downstream, as Combine's does.
@Suite struct FilterFamilyRequestEdgeTests {
    @Test func aRequestBeforeTheSubscriptionTraps() async {
        await #expect(processExitsWith: .failure) {
            let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
            upstream.holdsSubscription = true
            upstream.removeDuplicates().subscribe(TestSubscriber<Int, TestError>())
            (upstream.subscriber as? any Subscription)?.request(.max(1))
        }
    }

    @Test func aRequestAfterAnEarlyCancelIsIgnored() throws {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        upstream.holdsSubscription = true
        upstream.tryFilter { _ in true }.subscribe(TestSubscriber<Int, any Error>())
        let inner = try #require(upstream.subscriber as? any Subscription)
        inner.cancel()
        inner.request(.max(1))
        #expect(try #require(upstream.sendSubscription()).cancels == 1)
    }
}
