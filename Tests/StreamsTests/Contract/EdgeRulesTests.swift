import Foundation
import Streams
import StreamsTesting
import Testing

/// Combine's rules at the edges that the contract suite does not cover:
/// which operators accept `request(.none)`, which cancel is a no-op before the subscription,
/// which out-of-contract events trap, and what pass-through means.
@Suite struct EdgeRulesTests {
    private static func ints() -> ManualUpstream<Int, TestError> {
        ManualUpstream(failure: .oops) { $0 }
    }

    // MARK: request(.none)

    /// Operators that hand `.none` on to their upstream, as Combine does.
    static let forwardingZeroDemand: [(String, @Sendable (ManualUpstream<Int, TestError>) -> AnyPublisher<String, any Error>)] = [
        ("map", { $0.map { $0 }.contract() }),
        ("scan", { $0.scan(0, +).contract() }),
        ("tryMap", { $0.tryMap { $0 }.contract() }),
        ("tryScan", { $0.tryScan(0, +).contract() }),
        ("output", { $0.output(in: 0..<5).contract() }),
        ("encode", { $0.encode(encoder: JSONEncoder()).contract() }),
        ("handleEvents", { $0.handleEvents().contract() }),
        ("append", { $0.append(1).contract() }),
        ("drop(untilOutputFrom:)", { $0.drop(untilOutputFrom: Just(0).setFailureType(to: TestError.self)).contract() }),
        (
            "prefix(untilOutputFrom:)",
            { $0.prefix(untilOutputFrom: Empty<Int, TestError>(completeImmediately: false)).contract() }
        ),
    ]

    @Test(arguments: forwardingZeroDemand.map(\.0))
    func zeroDemandIsForwarded(_ name: String) throws {
        let build = try #require(Self.forwardingZeroDemand.first { $0.0 == name }?.1)
        let upstream = Self.ints()
        let subscriber = TestSubscriber<String, any Error>(initialDemand: nil)
        build(upstream).subscribe(subscriber)
        try #require(subscriber.subscription).request(.none)
        #expect(upstream.subscriptions.last?.requests == [Subscribers.Demand.none])
    }

    @Test func zeroDemandIsAcceptedByMergeBufferAndSequence() throws {
        let merged = TestSubscriber<Int, TestError>(initialDemand: nil)
        Self.ints().merge(with: Self.ints()).subscribe(merged)
        try #require(merged.subscription).request(.none)

        let buffered = TestSubscriber<Int, TestError>(initialDemand: nil)
        Self.ints().buffer(size: 0, prefetch: .byRequest, whenFull: .dropNewest).subscribe(buffered)
        try #require(buffered.subscription).request(.none)

        let sequence = TestSubscriber<Int, Never>(initialDemand: nil)
        [1, 2].publisher.subscribe(sequence)
        try #require(sequence.subscription).request(.none)
        #expect(sequence.values.isEmpty)
    }

    @Test func flatMapWithNoPublishersIsLegal() throws {
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.flatMap(maxPublishers: .none) { Just($0).setFailureType(to: TestError.self) }.subscribe(subscriber)
        #expect(subscriber.subscriptionCount == 1)
        #expect(upstream.subscriptions.last?.requests == [Subscribers.Demand.none])
    }

    @Test func zeroDemandTrapsWhereCombineTraps() async {
        await #expect(processExitsWith: .failure) {
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
            EdgeRulesTests.ints().tryFilter { _ in true }.mapError { $0 as! TestError }.subscribe(subscriber)
            subscriber.subscription?.request(.none)
        }
        await #expect(processExitsWith: .failure) {
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
            EdgeRulesTests.ints().reduce(0, +).subscribe(subscriber)
            subscriber.subscription?.request(.none)
        }
        await #expect(processExitsWith: .failure) {
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
            EdgeRulesTests.ints().dropFirst().subscribe(subscriber)
            subscriber.subscription?.request(.none)
        }
        await #expect(processExitsWith: .failure) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
            Just(1).subscribe(subscriber)
            subscriber.subscription?.request(.none)
        }
    }

    // MARK: Before the subscription

    /// Operators whose `cancel()` before the upstream subscription is a no-op.
    static let keepingLateSubscription:
        [(String, @Sendable (ManualUpstream<Int, TestError>) -> AnyPublisher<String, any Error>)] = [
            ("tryMap", { $0.tryMap { $0 }.contract() }),
            ("tryScan", { $0.tryScan(0, +).contract() }),
            ("dropFirst", { $0.dropFirst().contract() }),
            ("drop(while:)", { $0.drop { _ in false }.contract() }),
            ("output", { $0.prefix(3).contract() }),
            ("encode", { $0.encode(encoder: JSONEncoder()).contract() }),
            ("reduce", { $0.reduce(0, +).contract() }),
            ("count", { $0.count().contract() }),
            ("collect(_:)", { $0.collect(2).contract() }),
            ("buffer", { $0.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).contract() }),
            ("handleEvents", { $0.handleEvents().contract() }),
            ("replaceEmpty", { $0.replaceEmpty(with: 0).contract() }),
            ("replaceError", { $0.replaceError(with: 0).contract() }),
        ]

    @Test(arguments: keepingLateSubscription.map(\.0))
    func cancelBeforeTheSubscriptionIsANoOp(_ name: String) throws {
        let build = try #require(Self.keepingLateSubscription.first { $0.0 == name }?.1)
        let upstream = Self.ints()
        upstream.holdsSubscription = true
        let subscriber = TestSubscriber<String, any Error>()
        build(upstream).subscribe(subscriber)
        let inner = try #require(upstream.subscriber as? any Subscription)
        inner.cancel()
        let late = try #require(upstream.sendSubscription())
        #expect(late.cancels == 0)
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func filterFamilyCancelsTheLateSubscription() throws {
        let upstream = Self.ints()
        upstream.holdsSubscription = true
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryFilter { _ in true }.subscribe(subscriber)
        try #require(upstream.subscriber as? any Subscription).cancel()
        let late = try #require(upstream.sendSubscription())
        #expect(late.cancels == 1)
        #expect(subscriber.subscriptionCount == 0)
    }

    @Test func dropWhileIgnoresAValueBeforeTheSubscriptionUnseen() {
        let upstream = Self.ints()
        upstream.holdsSubscription = true
        let calls = Log<Int>()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.drop {
            calls.append($0); return false
        }.subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        #expect(calls.items.isEmpty)
        upstream.sendSubscription()
        upstream.send(2)
        #expect(calls.items == [2])
        #expect(subscriber.values == [2])
    }

    @Test func replaceEmptyIgnoresAValueBeforeTheSubscription() {
        let upstream = Self.ints()
        upstream.holdsSubscription = true
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.replaceEmpty(with: 0).subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        #expect(subscriber.events.isEmpty)
        upstream.sendSubscription()
        upstream.finish()
        #expect(subscriber.values == [0])
    }

    @Test func filterFamilyTrapsOnEventsBeforeTheSubscription() async {
        await #expect(processExitsWith: .failure) {
            let upstream = EdgeRulesTests.ints()
            upstream.holdsSubscription = true
            upstream.removeDuplicates().subscribe(TestSubscriber<Int, TestError>())
            upstream.send(1)
        }
        await #expect(processExitsWith: .failure) {
            let upstream = EdgeRulesTests.ints()
            upstream.holdsSubscription = true
            upstream.prefix { _ in true }.subscribe(TestSubscriber<Int, TestError>())
            upstream.finish()
        }
    }

    @Test func negativeDropFirstTrapsOnlyWhenSubscribed() async {
        _ = Just(1).eraseToAnyPublisher().dropFirst(-1)
        await #expect(processExitsWith: .failure) {
            _ = Just(1).eraseToAnyPublisher().dropFirst(-1).sink { _ in }
        }
    }

    // MARK: Pass-through

    @Test func passThroughOperatorsHandTheUpstreamSubscriptionDown() throws {
        let operators: [(ManualUpstream<Int, TestError>) -> AnyPublisher<String, any Error>] = [
            { $0.scan(0, +).contract() },
            { $0.ignoreOutput().contract() },
            { $0.breakpoint().contract() },
            { $0.assertNoFailure().contract() },
        ]
        for build in operators {
            let upstream = Self.ints()
            let subscriber = TestSubscriber<String, any Error>(initialDemand: nil)
            build(upstream).subscribe(subscriber)
            #expect(try #require(subscriber.subscription) as AnyObject === upstream.subscriptions.last)
        }
    }

    @Test func ignoreOutputAsksForEverythingAfterHandingTheSubscriptionDown() throws {
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Never, TestError>(initialDemand: .max(3))
        upstream.ignoreOutput().subscribe(subscriber)
        #expect(upstream.subscriptions.last?.requests == [.max(3), .unlimited])
        #expect(upstream.send(1) == .none)
    }

    @Test func scanForwardsEveryCompletion() {
        let upstream = Self.ints()
        upstream.ignoresCancel = true
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.scan(0, +).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.finish()
        upstream.finish()
        #expect(subscriber.values == [1, 3])
        #expect(subscriber.completions.count == 2)
    }

    @Test func assertNoFailureTrapsEvenAfterFinishing() async {
        await #expect(processExitsWith: .failure) {
            let upstream = EdgeRulesTests.ints()
            upstream.ignoresCancel = true
            upstream.assertNoFailure().subscribe(TestSubscriber<Int, Never>())
            upstream.finish()
            upstream.fail()
        }
    }

    // MARK: One inner behind several subscribers

    @Test func catchReportsOneInnerToBothSides() throws {
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.catch { _ in Just(0).setFailureType(to: TestError.self) }.subscribe(subscriber)
        let inner = try #require(subscriber.subscription)
        let link = try #require(upstream.subscriber as? any Subscriber<Int, TestError>)
        #expect(link.combineIdentifier == inner.combineIdentifier)
        #expect(String(describing: link) == "Catch")
    }
}
