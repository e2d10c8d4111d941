@testable import Streams
import StreamsTesting
import Testing

/// Publishers.Sequence's and Record's subscriptions, and collect(_ count:), at the edges.
@Suite struct SequenceRecordAndCollectEdgeTests {
    @Test func sequenceDescribesACustomSequenceAndTurnsToSequenceOnceCancelled() throws {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        stride(from: 0, to: 6, by: 2).publisher.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == String(describing: stride(from: 0, to: 6, by: 2)))
        subscription.cancel()
        #expect(String(describing: subscription) == "Sequence")
        #expect(Mirror(reflecting: subscription).children.map(\.label) == ["sequence"])
        #expect((Mirror(reflecting: subscription).children.first?.value as? [Int]) == [])
    }

    @Test func sequenceAcceptsZeroDemandFromInsideReceive() {
        var subscription: (any Subscription)?
        var received: [Int] = []
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: {
                subscription = $0
                $0.request(.max(2))
            },
            receiveValue: {
                received.append($0)
                subscription?.request(.none)
                return .none
            }, receiveCompletion: { _ in })
        [1, 2, 3].publisher.subscribe(subscriber)
        #expect(received == [1, 2])
    }

    @Test func anEmptyRecordSendsTheEmptySubscriptionThenItsCompletion() {
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        Record<Int, TestError>(output: [], completion: .failure(.oops)).subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Empty"), .completion(.failure(.oops))])
    }

    @Test func recordDescribesItsOutputUntilFinishedOrCancelled() throws {
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        Record<Int, TestError>(output: [1, 2], completion: .failure(.oops)).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "[1, 2]")
        #expect(Mirror(reflecting: subscription).children.map(\.label) == ["sequence", "completion"])
        subscription.request(.none)
        #expect(subscriber.events == [.subscription("[1, 2]")])
        subscription.request(.max(2))
        #expect(subscriber.events == [.subscription("[1, 2]"), .value(1), .value(2), .completion(.failure(.oops))])
        #expect(String(describing: subscription) == "Cancelled Events")

        let cancelled = TestSubscriber<Int, TestError>(initialDemand: nil)
        Record<Int, TestError>(output: [1], completion: .finished).subscribe(cancelled)
        cancelled.cancel()
        #expect(String(describing: try #require(cancelled.subscription)) == "Cancelled Events")
    }

    private static func ints() -> ManualUpstream<Int, TestError> { ManualUpstream(failure: .oops) { $0 } }

    @Test func collectByCountAsksForDemandTimesCount() {
        let upstream = Self.ints()
        let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.collect(3).subscribe(subscriber)
        for value in 1...4 { upstream.send(value) }
        upstream.finish()
        #expect(upstream.subscriptions[0].requests == [.max(6)])
        #expect(subscriber.values == [[1, 2, 3], [4]])
    }

    @Test func collectByCountKeepsALateSubscriptionWithoutRequestingAfterAnEarlyCancel() throws {
        let upstream = Self.ints()
        upstream.holdsSubscription = true
        let subscriber = TestSubscriber<[Int], TestError>(initialDemand: nil)
        upstream.collect(2).subscribe(subscriber)
        let inner = try #require(upstream.subscriber as? any Subscription)
        // Unlike Combine, values and a completion before the subscription are not forwarded.
        upstream.send(1)
        inner.cancel()
        let late = try #require(upstream.sendSubscription())
        #expect(late.cancels == 0)
        #expect(late.requests.isEmpty)
        #expect(subscriber.subscriptionCount == 1)
        upstream.send(2)
        upstream.send(3)
        upstream.finish()
        #expect(subscriber.events == [.subscription("CollectByCount"), .value([2, 3]), .completion(.finished)])
    }

    @Test func collectByCountIgnoresACompletionBeforeItsSubscriptionAndAcceptsNoneAfterIt() {
        let upstream = Self.ints()
        upstream.holdsSubscription = true
        upstream.ignoresCancel = true
        let subscriber = TestSubscriber<[Int], TestError>(initialDemand: nil)
        upstream.collect(2).subscribe(subscriber)
        upstream.fail()
        #expect(subscriber.events.isEmpty)
        #expect(upstream.sendSubscription()?.cancels == 1)
        #expect(subscriber.events.isEmpty)
    }

    @Test func collectByCountZeroDemandTraps() async {
        await #expect(processExitsWith: .failure) {
            let subscriber = TestSubscriber<[Int], Never>(initialDemand: Subscribers.Demand.none)
            [1].publisher.collect(2).subscribe(subscriber)
        }
    }
}
