@testable import Streams
import StreamsTesting
import Testing

/// The reduce family at the edges: one shared behaviour.
@Suite struct ReducingEdgeTests {
    private static func ints() -> ManualUpstream<Int, TestError> { ManualUpstream(failure: .oops) { $0 } }

    /// Operators that decide only when upstream finishes.
    static let folding: [(String, @Sendable (ManualUpstream<Int, TestError>) -> AnyPublisher<String, TestError>)] = [
        ("reduce", { $0.reduce(0, +).map { "\($0)" }.eraseToAnyPublisher() }),
        ("count", { $0.count().map { "\($0)" }.eraseToAnyPublisher() }),
        ("last", { $0.last().map { "\($0)" }.eraseToAnyPublisher() }),
        ("max", { $0.max().map { "\($0)" }.eraseToAnyPublisher() }),
        ("collect", { $0.collect().map { "\($0)" }.eraseToAnyPublisher() }),
    ]

    @Test(arguments: ["reduce", "count", "last", "max", "collect"])
    func theResultAndFinishedWaitForTheFirstRequest(_ name: String) throws {
        let build = try #require(Self.folding.first { $0.0 == name }?.1)
        let upstream = Self.ints()
        let subscriber = TestSubscriber<String, TestError>(initialDemand: nil)
        build(upstream).subscribe(subscriber)
        #expect(upstream.subscriptions[0].requests == [.unlimited])
        upstream.send(2)
        upstream.send(3)
        upstream.finish()
        #expect(subscriber.events.count == 1)
        subscriber.request(.max(1))
        #expect(subscriber.events.count == 3)
        #expect(subscriber.completion == .finished)
        subscriber.request(.max(1))
        #expect(subscriber.events.count == 3)
    }

    @Test func aBareFinishedOfAnEmptyUpstreamWaitsForDemandToo() {
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        upstream.first().subscribe(subscriber)
        upstream.finish()
        #expect(subscriber.events == [.subscription("First")])
        subscriber.request(.max(3))
        #expect(subscriber.events == [.subscription("First"), .completion(.finished)])
    }

    @Test func aFailureGoesOutAtOnce() {
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        upstream.reduce(0, +).subscribe(subscriber)
        upstream.send(1)
        upstream.fail()
        #expect(subscriber.events == [.subscription("Reduce"), .completion(.failure(.oops))])
    }

    @Test func anEarlyDecisionCancelsUpstreamAndWaitsForDemand() {
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Bool, TestError>(initialDemand: nil)
        upstream.contains(2).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        #expect(upstream.subscriptions[0].cancels == 1)
        #expect(subscriber.events == [.subscription("Contains")])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription("Contains"), .value(true), .completion(.finished)])

        let asked = TestSubscriber<Bool, TestError>()
        let second = Self.ints()
        second.allSatisfy { $0 < 5 }.subscribe(asked)
        second.send(7)
        #expect(second.subscriptions[0].cancels == 1)
        #expect(asked.events == [.subscription("AllSatisfy"), .value(false), .completion(.finished)])
    }

    @Test func aThrowingClosureCancelsUpstreamAndFailsAtOnce() {
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: nil)
        upstream.tryFirst { _ in throw TestError.other }.subscribe(subscriber)
        upstream.send(1)
        #expect(upstream.subscriptions[0].cancels == 1)
        guard case .failure(let error) = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? TestError == .other)
    }

    @Test func aCancelBeforeTheSubscriptionIsANoOp() throws {
        let upstream = Self.ints()
        upstream.holdsSubscription = true
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.count().subscribe(subscriber)
        try #require(upstream.subscriber as? any Subscription).cancel()
        let late = try #require(upstream.sendSubscription())
        #expect(late.cancels == 0)
        #expect(late.requests == [.unlimited])
        #expect(subscriber.subscriptionCount == 1)
        upstream.send(1)
        upstream.finish()
        #expect(subscriber.events == [.subscription("Count"), .value(1), .completion(.finished)])
    }

    @Test func zeroDemandTraps() async {
        await #expect(processExitsWith: .failure) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
            [1].publisher.reduce(0, +).subscribe(subscriber)
            subscriber.request(.none)
        }
    }

    @Test func machinePhases() {
        var machine = ReducingStateMachine<String, Int>(core: "core")
        guard case .none = machine.cancel() else {
            Issue.record("a cancel before the subscription changes nothing")
            return
        }
        #expect(machine.value() == nil)
        #expect(machine.subscription(Subscriptions.empty) == "core")
        #expect(machine.subscription(Subscriptions.empty) == nil)
        #expect(machine.value() == "core")
        let early = machine.finish(4, cancelUpstream: true)
        #expect(early.upstream != nil && early.deliver == nil)
        #expect(machine.value() == nil)
        guard case .none = machine.fail(cancelUpstream: false) else {
            Issue.record("a failure after the result is known is ignored")
            return
        }
        guard case .deliver(let heldCore, let heldResult) = machine.request() else {
            Issue.record("the result is not held")
            return
        }
        #expect(heldCore == "core" && heldResult == 4)
        guard case .none = machine.request() else { Issue.record("delivered twice"); return }
        #expect(machine.core == nil)

        var asked = ReducingStateMachine<String, Int>(core: "core")
        _ = asked.subscription(Subscriptions.empty)
        guard case .none = asked.request() else { Issue.record("nothing is held yet"); return }
        let now = asked.finish(nil, cancelUpstream: false)
        #expect(now.upstream == nil && now.deliver == "core")
    }
}
