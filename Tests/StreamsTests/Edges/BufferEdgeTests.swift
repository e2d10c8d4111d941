@testable import Streams
import StreamsTesting
import Testing

/// buffer(size:prefetch:whenFull:) at the edges.
@Suite struct BufferEdgeTests {
    private static func ints() -> ManualUpstream<Int, TestError> { ManualUpstream(failure: .oops) { $0 } }

    @Test(arguments: [(Publishers.PrefetchStrategy.keepFull, Subscribers.Demand.max(3)), (.byRequest, .unlimited)])
    func asksUpstreamBeforeHandingItselfDownstream(_ prefetch: Publishers.PrefetchStrategy, _ initial: Subscribers.Demand) {
        let upstream = Self.ints()
        var seenWhenSubscribed: [Subscribers.Demand]?
        let subscriber = AnySubscriber<Int, TestError>(
            receiveSubscription: { _ in seenWhenSubscribed = upstream.subscriptions[0].requests },
            receiveValue: { _ in .none }, receiveCompletion: { _ in })
        upstream.buffer(size: 3, prefetch: prefetch, whenFull: .dropNewest).subscribe(subscriber)
        #expect(seenWhenSubscribed == [initial])
    }

    @Test func aFailureInsideTheInitialRequestFollowsTheSubscription() {
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: nil)
        [1, 2].publisher.tryMap { _ in throw TestError.other }
            .buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest)
            .subscribe(subscriber)
        #expect(subscriber.events.count == 2)
        #expect(subscriber.events.first.map { "\($0)" } == "subscription(Buffer)")
        #expect(subscriber.completion != nil)
    }

    @Test func overflowStrategies() {
        func run(_ whenFull: Publishers.BufferingStrategy<TestError>) -> (TestSubscriber<Int, TestError>, ManualSubscription) {
            let upstream = Self.ints()
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
            upstream.buffer(size: 2, prefetch: .byRequest, whenFull: whenFull).subscribe(subscriber)
            for value in 1...3 { upstream.send(value) }
            subscriber.request(.max(5))
            return (subscriber, upstream.subscriptions[0])
        }
        #expect(run(.dropNewest).0.values == [1, 2])
        #expect(run(.dropOldest).0.values == [2, 3])
        let (failed, upstream) = run(.customError { .other })
        // The failure waited for the request, and followed the buffered values it took.
        #expect(failed.events == [.subscription("Buffer"), .value(1), .value(2), .completion(.failure(.other))])
        #expect(upstream.cancels == 1)
    }

    @Test(arguments: [Publishers.PrefetchStrategy.byRequest, .keepFull])
    func aCustomErrorWaitsForTheNextRequestAndEndsItsDrain(_ prefetch: Publishers.PrefetchStrategy) {
        let upstream = Self.ints()
        upstream.ignoresCancel = true  // keeps sending after the overflow cancelled it
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        upstream.buffer(size: 5, prefetch: prefetch, whenFull: .customError { .other }).subscribe(subscriber)
        for value in 0..<10 { #expect(upstream.send(value) == .none) }
        // 5 overflowed: the upstream is cancelled, nothing is sent yet, later values are ignored.
        #expect(subscriber.events == [.subscription("Buffer")])
        let initial: Subscribers.Demand = prefetch == .keepFull ? .max(5) : .unlimited
        #expect(upstream.subscriptions[0].requests == [initial])
        #expect(upstream.subscriptions[0].cancels == 1)

        subscriber.request(.max(3))
        // Up to the demand of buffered values, then the failure; 3 and 4 are discarded.
        let failed: [TestSubscriber<Int, TestError>.Event] = [
            .subscription("Buffer"), .value(0), .value(1), .value(2), .completion(.failure(.other)),
        ]
        #expect(subscriber.events == failed)
        // `.keepFull` still asks the cancelled upstream for the values that left, as Combine does.
        let refill: [Subscribers.Demand] = prefetch == .keepFull ? [.max(3)] : []
        #expect(upstream.subscriptions[0].requests == [initial] + refill)
        subscriber.request(.max(1))
        #expect(subscriber.events == failed)
        #expect(upstream.subscriptions[0].requests == [initial] + refill)
        #expect(upstream.subscriptions[0].cancels == 1)
    }

    @Test func aCustomErrorWaitsForARequestEvenWithDemandOutstanding() {
        // With `size: 0` every value overflows, also while the downstream has demand.
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2))
        upstream.buffer(size: 0, prefetch: .byRequest, whenFull: .customError { .other }).subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        #expect(subscriber.events == [.subscription("Buffer")])
        subscriber.request(.none)
        #expect(subscriber.events == [.subscription("Buffer"), .completion(.failure(.other))])
    }

    @Test func aCustomErrorInsideTheInitialRequestWaitsForTheDownstreamsRequest() {
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        [1, 2, 3].publisher.setFailureType(to: TestError.self)
            .buffer(size: 1, prefetch: .byRequest, whenFull: .customError { .other })
            .subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Buffer")])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription("Buffer"), .value(1), .completion(.failure(.other))])
    }

    @Test func aCancelAfterACustomErrorCancelsTheUpstreamAgainAndSendsNothing() {
        // As in Combine, which still holds the upstream subscription until the failure is sent.
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        upstream.buffer(size: 1, prefetch: .byRequest, whenFull: .customError { .other }).subscribe(subscriber)
        let subscription = upstream.subscriptions[0]
        upstream.send(1)
        upstream.send(2)
        #expect(subscription.cancels == 1)
        subscriber.cancel()
        #expect(subscription.cancels == 2)
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription("Buffer")])
    }

    @Test func aPendingFailureWaitsOnlyWhileDemandLasts() {
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        for value in 1...3 { upstream.send(value) }
        upstream.fail()
        #expect(subscriber.events == [.subscription("Buffer")] + [.completion(.failure(.oops))])

        let second = Self.ints()
        let oneWanted = TestSubscriber<Int, TestError>(initialDemand: nil)
        second.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(oneWanted)
        oneWanted.request(.max(1))
        second.send(1)
        second.send(2)
        oneWanted.request(.max(1))
        second.send(3)
        second.send(4)
        second.fail()
        #expect(oneWanted.events == [.subscription("Buffer"), .value(1), .value(2), .completion(.failure(.oops))])
    }

    @Test func finishedWaitsForAnEmptyBufferAndDemand() {
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(1)
        upstream.finish()
        #expect(subscriber.events == [.subscription("Buffer")])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription("Buffer"), .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription("Buffer"), .value(1), .completion(.finished)])
    }

    @Test func keepFullReturnsDeliveredValuesFromAValueAndRequestsThemFromARequest() {
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        upstream.buffer(size: 4, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(3) == .none)
        subscriber.request(.max(5))
        #expect(subscriber.values == [1, 2, 3])
        #expect(upstream.subscriptions[0].requests == [.max(4), .max(2)])
    }

    @Test func byRequestNeverAsksAgain() {
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        upstream.buffer(size: 4, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        upstream.send(2)
        subscriber.request(.max(1))
        #expect(upstream.subscriptions[0].requests == [.unlimited])
        #expect(subscriber.values == [1, 2])
    }

    @Test func aRequestFromInsideTheDownstreamOnlyAddsDemand() {
        let upstream = Self.ints()
        var received: [Int] = []
        var subscription: (any Subscription)?
        var depth = 0
        var deepest = 0
        let subscriber = AnySubscriber<Int, TestError>(
            receiveSubscription: { subscription = $0 },
            receiveValue: {
                depth += 1
                deepest = max(deepest, depth)
                received.append($0)
                subscription?.request(.max(1))
                depth -= 1
                return .none
            }, receiveCompletion: { _ in })
        upstream.buffer(size: 4, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        for value in 1...3 { upstream.send(value) }
        subscription?.request(.max(1))
        #expect(received == [1, 2, 3])
        #expect(deepest == 1)
    }

    @Test func sizeZeroIsAccepted() {
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.buffer(size: 0, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(1)
        upstream.finish()
        #expect(subscriber.events == [.subscription("Buffer"), .completion(.finished)])
    }

    @Test func aCancelBeforeTheSubscriptionIsANoOp() throws {
        let upstream = Self.ints()
        upstream.holdsSubscription = true
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        try #require(upstream.subscriber as? any Subscription).cancel()
        let late = try #require(upstream.sendSubscription())
        #expect(late.cancels == 0)
        #expect(late.requests == [.max(2)])
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func valuesAfterTheUpstreamFinishedAreIgnored() {
        // Combine still buffers them and delivers them before `.finished`.
        let upstream = Self.ints()
        upstream.ignoresCancel = true
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        upstream.buffer(size: 4, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(1)
        upstream.finish()
        upstream.send(2)
        subscriber.request(.unlimited)
        #expect(subscriber.events == [.subscription("Buffer"), .value(1), .completion(.finished)])
    }

    @Test func aSendFromTheCustomErrorClosureTraps() async {
        await #expect(processExitsWith: .failure) {
            final class Holder: @unchecked Sendable { var upstream: ManualUpstream<Int, TestError>? }
            let holder = Holder()
            let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
            holder.upstream = upstream
            let subscriber = TestSubscriber<Int, TestError>()
            upstream.buffer(
                size: 0, prefetch: .byRequest,
                whenFull: .customError {
                    holder.upstream?.send(9)
                    return .other
                }
            ).subscribe(subscriber)
            upstream.send(1)
        }
    }

    @Test func machineDrainsInBatchesOfDemand() {
        var machine = BufferStateMachine<String, Int, TestError>(
            downstream: "down", size: 2, keepFull: true, overflow: .dropOldest)
        guard case .request(let initial, _) = machine.subscription(Subscriptions.empty) else {
            Issue.record("the subscription must be kept")
            return
        }
        #expect(initial == .max(2))
        machine.subscriptionHandedDownstream()
        guard case .drain = machine.value(1) else {
            Issue.record("expected the value to be buffered")
            return
        }
        let claimed = machine.beginDrain()
        let claimedAgain = machine.beginDrain()
        #expect(claimed && !claimedAgain)
        guard case .stop(0, .none) = machine.drainStep(returned: .none) else {
            Issue.record("expected the drain to stop without demand")
            return
        }
        _ = machine.value(2)
        _ = machine.value(3)
        #expect(machine.buffered == [2, 3])
        _ = machine.request(.max(1))
        let step1 = machine.beginDrain()
        #expect(step1)
        guard case .send("down", 2) = machine.drainStep(returned: .none),
            case .send("down", 3) = machine.drainStep(returned: .max(1)),
            case .stop(2, .some(_)) = machine.drainStep(returned: .none)
        else {
            Issue.record("expected two values, then a re-request of 2")
            return
        }
        let step2 = machine.completion(.finished)
        #expect(step2)
        let step3 = machine.beginDrain()
        #expect(step3)
        guard case .stop = machine.drainStep(returned: .none) else {
            Issue.record("`.finished` waits for demand")
            return
        }
        _ = machine.request(.max(1))
        let step4 = machine.beginDrain()
        #expect(step4)
        guard case .complete("down", .finished, _, 0, .none) = machine.drainStep(returned: .none) else {
            Issue.record("expected `.finished`")
            return
        }
        #expect(machine.downstream == nil)
    }

    @Test func machineHoldsAnOverflowFailureUntilARequest() {
        var machine = BufferStateMachine<String, Int, TestError>(
            downstream: "down", size: 2, keepFull: true, overflow: .customError)
        _ = machine.subscription(Subscriptions.empty)
        machine.subscriptionHandedDownstream()
        _ = machine.value(1)
        _ = machine.value(2)
        guard case .makeError = machine.value(3) else {
            Issue.record("a full buffer makes the error")
            return
        }
        let toCancel = machine.overflowed(.other)
        #expect(toCancel != nil)
        let drainsBeforeARequest = machine.beginDrain()
        #expect(!drainsBeforeARequest)
        let accepted = machine.request(.max(1))
        let drainsAfterIt = machine.beginDrain()
        #expect(accepted && drainsAfterIt)
        guard case .send("down", 1) = machine.drainStep(returned: .none),
            case .complete("down", .failure(.other), let discarded, 1, .some) = machine.drainStep(returned: .none)
        else {
            Issue.record("expected a value, then the failure with a re-request of 1 from the cancelled upstream")
            return
        }
        #expect(discarded.last == 2, "the value left in the buffer is let go outside the lock")
        #expect(machine.overflowedUpstream == nil)
    }
}
