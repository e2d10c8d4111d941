import Streams
import StreamsTesting
import Testing

/// Combine's rules at the edges for the fan-in operators `merge`, `combineLatest` and `zip`:
/// descriptions and mirrors, zero demand, and `zip`'s subscription and demand.
@Suite struct FanInEdgeTests {
    /// Builds an operator over two hand-driven upstreams.
    typealias Build =
        @Sendable (ManualUpstream<Int, TestError>, ManualUpstream<Int, TestError>) -> AnyPublisher<String, any Error>

    private static func ints() -> ManualUpstream<Int, TestError> {
        ManualUpstream(failure: .oops) { $0 }
    }

    // MARK: Descriptions and mirrors

    /// Every arity, built over two hand-driven upstreams (the others are `Empty`s that never finish).
    static let arities: [(String, String, Build)] = {
        let never = Empty<Int, TestError>(completeImmediately: false)
        return [
            ("merge", "Merge", { $0.merge(with: $1).contract() }),
            ("Merge3", "Merge", { $0.merge(with: $1, never).contract() }),
            ("Merge8", "Merge", { $0.merge(with: $1, never, never, never, never, never, never).contract() }),
            ("MergeMany", "Merge", { Publishers.MergeMany($0, $1).contract() }),
            ("combineLatest", "CombineLatest", { $0.combineLatest($1).contract() }),
            ("CombineLatest3", "CombineLatest", { $0.combineLatest($1, never).contract() }),
            ("CombineLatest4", "CombineLatest", { $0.combineLatest($1, never, never).contract() }),
            ("zip", "Zip", { $0.zip($1).contract() }),
            ("Zip3", "Zip", { $0.zip($1, Just(0).setFailureType(to: TestError.self)).contract() }),
            ("Zip4", "Zip", { $0.zip($1, never, never).contract() }),
        ]
    }()

    @Test(arguments: arities.map(\.0))
    func innerObjectsDescribeThemselvesAsTheOperator(_ arity: String) throws {
        let (_, name, build) = try #require(Self.arities.first { $0.0 == arity })
        let (a, b) = (Self.ints(), Self.ints())
        let subscriber = TestSubscriber<String, any Error>()
        build(a, b).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        // What the downstream sees is behind `map`'s pass-through subscriber: the operator's own.
        let objects: [Any] = [subscription, try #require(a.subscriber), try #require(b.subscriber)]
        for object in objects {
            #expect(String(describing: object) == name)
            #expect((object as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == name)
            #expect(object is any CustomReflectable)
            #expect(Mirror(reflecting: object).children.isEmpty)
            #expect(!(object is any CustomDebugStringConvertible))
        }
        subscriber.cancel()
    }

    // MARK: zip's subscription and demand

    @Test func zipHandsItsSubscriptionDownstreamOnceEveryUpstreamHasOne() throws {
        let (a, b) = (Self.ints(), Self.ints())
        b.holdsSubscription = true
        let subscriber = TestSubscriber<(Int, Int), TestError>(initialDemand: .max(2))
        a.zip(b).subscribe(subscriber)
        #expect(subscriber.subscriptionCount == 0)
        #expect(a.subscriptions[0].requests.isEmpty)
        b.sendSubscription()
        #expect(subscriber.events.map(\.kind) == ["subscription Zip"])
        #expect(a.subscriptions[0].requests == [.max(2)])
        #expect(b.subscriptions[0].requests == [.max(2)])
    }

    @Test func zipReturnsTheDemandForATupleFromTheUpstreamThatCompletedIt() throws {
        let (a, b) = (Self.ints(), Self.ints())
        let subscriber = TestSubscriber<(Int, Int), TestError>(initialDemand: .max(1), demandPerValue: .max(2))
        a.zip(b).subscribe(subscriber)
        #expect(a.send(1) == .none)
        #expect(b.send(10) == .max(2))
        #expect(subscriber.values.map { [$0.0, $0.1] } == [[1, 10]])
        // The other upstream is asked with `request`; the completing one only through its return.
        #expect(a.subscriptions[0].requests == [.max(1), .max(2)])
        #expect(b.subscriptions[0].requests == [.max(1)])
    }

    @Test func zipReturnsARequestMadeInsideReceiveFromTheCompletingUpstream() throws {
        let (a, b) = (Self.ints(), Self.ints())
        let subscriber = ScriptedSubscriber<(Int, Int)>(initialDemand: .max(1), requestInside: .max(3), returned: .max(1))
        a.zip(b).subscribe(subscriber)
        #expect(b.send(10) == .none)
        #expect(a.send(1) == .max(4))
        #expect(subscriber.received == 1)
        // Asked of the other upstream at once, when the downstream requested it, then the returned demand.
        #expect(b.subscriptions[0].requests == [.max(1), .max(3), .max(1)])
        #expect(a.subscriptions[0].requests == [.max(1)])
    }

    @Test func zipAsksEveryUpstreamForARequestMadeOutsideReceive() throws {
        let (a, b) = (Self.ints(), Self.ints())
        let subscriber = TestSubscriber<(Int, Int), TestError>(initialDemand: .max(1))
        a.zip(b).subscribe(subscriber)
        a.send(1)
        b.send(10)
        subscriber.request(.max(2))
        #expect(a.subscriptions[0].requests == [.max(1), .max(2)])
        #expect(b.subscriptions[0].requests == [.max(1), .max(2)])
    }

    /// As in Combine, `zip` is among the operators that trap on `request(.none)`, at every arity
    /// (`merge` and `combineLatest` accept it: see below). The upstreams (`Empty`s that never
    /// finish) do not trap on it themselves: the trap is zip's own.
    @Test func zipTrapsOnZeroDemandAtEveryArity() async {
        let zip2 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<(Int, Int), Never>(initialDemand: nil)
            let never = Empty<Int, Never>(completeImmediately: false)
            never.zip(never).subscribe(subscriber)
            subscriber.request(.none)
        }
        MisuseTests.expectMessage("API Violation: demand must not be zero", in: zip2)
        let zip3 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<(Int, Int, Int), Never>(initialDemand: nil)
            let never = Empty<Int, Never>(completeImmediately: false)
            never.zip(never, never).subscribe(subscriber)
            subscriber.request(.none)
        }
        MisuseTests.expectMessage("API Violation: demand must not be zero", in: zip3)
        let zip4 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<(Int, Int, Int, Int), Never>(initialDemand: nil)
            let never = Empty<Int, Never>(completeImmediately: false)
            never.zip(never, never, never).subscribe(subscriber)
            subscriber.request(.none)
        }
        MisuseTests.expectMessage("API Violation: demand must not be zero", in: zip4)
    }

    /// Combine sends a tuple completed while the downstream's demand is exhausted; Streams
    /// keeps it until the downstream asks.
    @Test func zipKeepsASurplusTupleUntilDemand() throws {
        let (a, b) = (Self.ints(), Self.ints())
        let subscriber = TestSubscriber<(Int, Int), TestError>(initialDemand: .max(1))
        a.zip(b).subscribe(subscriber)
        a.send(1)
        b.send(10)
        a.send(2)
        #expect(b.send(20) == .none)
        #expect(subscriber.values.map(\.0) == [1])
        subscriber.request(.max(1))
        #expect(subscriber.values.map(\.0) == [1, 2])
    }

    /// An upstream that finishes before the others have subscribed ends the zip: the downstream
    /// gets the subscription, then `.finished`; a late upstream subscription is cancelled.
    @Test func zipFinishedBeforeEveryUpstreamSubscribedHandsOverThenFinishes() throws {
        let late = Self.ints()
        late.holdsSubscription = true
        let subscriber = TestSubscriber<(Int, Int), TestError>()
        Empty<Int, TestError>().zip(late).subscribe(subscriber)
        #expect(subscriber.events.map(\.kind) == ["subscription Zip", "finished"])
        let subscription = try #require(late.sendSubscription())
        #expect(subscription.cancels == 1)
        #expect(subscription.requests.isEmpty)
    }

    // MARK: merge and combineLatest accept request(.none)

    static let zeroDemandAccepting: [(String, Build)] = [
        ("merge", { $0.merge(with: $1).contract() }),
        ("combineLatest", { $0.combineLatest($1).contract() }),
    ]

    /// Not in Combine's list of operators that trap on it: accepted, and changes nothing (not
    /// even passed on, where an upstream such as `Just` would trap on it).
    @Test(arguments: zeroDemandAccepting.map(\.0))
    func zeroDemandIsAcceptedAndChangesNothing(_ name: String) throws {
        let build = try #require(Self.zeroDemandAccepting.first { $0.0 == name }?.1)
        let (a, b) = (Self.ints(), Self.ints())
        let subscriber = TestSubscriber<String, any Error>(initialDemand: nil)
        build(a, b).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        subscription.request(.none)
        #expect(a.subscriptions[0].requests.isEmpty)
        #expect(b.subscriptions[0].requests.isEmpty)
        subscription.request(.max(1))
        #expect(a.subscriptions[0].requests == [.max(1)])
        #expect(b.subscriptions[0].requests == [.max(1)])
    }

    @Test func mergeOfJustsSurvivesZeroDemand() throws {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        Just(1).merge(with: Just(2)).subscribe(subscriber)
        try #require(subscriber.subscription).request(.none)
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2])
    }
}

extension TestSubscriber.Event {
    /// The event as a short string, for comparing without the values.
    fileprivate var kind: String {
        switch self {
        case .subscription(let name): "subscription \(name)"
        case .value: "value"
        case .completion(.finished): "finished"
        case .completion(.failure): "failure"
        }
    }
}

/// A subscriber that, inside each `receive(_:)`, requests `requestInside` through its
/// subscription and then returns `returned`.
private final class ScriptedSubscriber<Input>: Subscriber, @unchecked Sendable {
    typealias Failure = TestError

    let initialDemand: Subscribers.Demand
    let requestInside: Subscribers.Demand
    let returned: Subscribers.Demand
    var subscription: (any Subscription)?
    var received = 0

    init(initialDemand: Subscribers.Demand, requestInside: Subscribers.Demand, returned: Subscribers.Demand) {
        self.initialDemand = initialDemand
        self.requestInside = requestInside
        self.returned = returned
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(initialDemand)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        received += 1
        subscription?.request(requestInside)
        return returned
    }

    func receive(completion: Subscribers.Completion<TestError>) {}
}
