@testable import Streams
import StreamsTesting
import Testing

/// A connectable publisher driven by hand: it logs subscribes and connects, keeps the last
/// subscriber, and runs `onConnect` inside `connect()`.
private final class ManualConnectable: ConnectablePublisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = TestError

    let log = Log<String>()
    var onConnect: () -> Void = {}
    private(set) var subscribers: [AnySubscriber<Int, TestError>] = []
    private(set) var received: [Any] = []
    private(set) var connects = 0

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
        log.append("subscribe")
        received.append(subscriber)
        subscribers.append(AnySubscriber(subscriber))
    }

    func connect() -> any Cancellable {
        connects += 1
        log.append("connect")
        onConnect()
        let log = self.log
        return AnyCancellable { log.append("disconnect") }
    }
}

/// A subscription with a playground description of its own, recording what is asked of it.
private final class NamedSubscription: Subscription, CustomStringConvertible, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable
{
    let log: Log<String>
    private(set) var requests: [Subscribers.Demand] = []

    init(log: Log<String>) {
        self.log = log
    }

    func request(_ demand: Subscribers.Demand) {
        requests.append(demand)
    }

    func cancel() {
        log.append("cancel upstream subscription")
    }

    var description: String { "Named" }
    var playgroundDescription: Any { "Named in a playground" }
}

@Suite("autoconnect at the edges")
struct AutoconnectEdgeTests {
    @Test func theFirstSubscriberIsSubscribedUpstreamAndThenConnects() {
        let upstream = ManualConnectable()
        let autoconnect = upstream.autoconnect()
        autoconnect.subscribe(TestSubscriber<Int, TestError>())
        autoconnect.subscribe(TestSubscriber<Int, TestError>())
        #expect(upstream.log.items == ["subscribe", "connect", "subscribe"])
    }

    @Test func theLastSubscriberToCancelDisconnectsAndTheNextOneConnectsAgain() {
        let upstream = ManualConnectable()
        let autoconnect = upstream.autoconnect()
        let a = TestSubscriber<Int, TestError>()
        let b = TestSubscriber<Int, TestError>()
        autoconnect.subscribe(a)
        autoconnect.subscribe(b)
        for subscriber in upstream.subscribers {
            subscriber.receive(subscription: NamedSubscription(log: upstream.log))
        }
        a.cancel()
        #expect(!upstream.log.items.contains("disconnect"))
        b.cancel()
        #expect(upstream.log.items.filter { $0 == "disconnect" }.count == 1)
        autoconnect.subscribe(TestSubscriber<Int, TestError>())
        #expect(upstream.connects == 2)
    }

    @Test func theInnerDescribesItselfAsAutoconnect() throws {
        let upstream = ManualConnectable()
        let autoconnect = upstream.autoconnect()
        let downstream = TestSubscriber<Int, TestError>()
        autoconnect.subscribe(downstream)
        let inner = try #require(upstream.received.first)
        #expect(String(describing: inner) == "Autoconnect")
        #expect((inner as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Autoconnect")
        let children = Mirror(reflecting: inner).children.map { ($0.label ?? "", $0.value) }
        #expect(children.map(\.0) == ["parent", "downstream"])
        #expect(children.first?.1 as? Publishers.Autoconnect<ManualConnectable> === autoconnect)
        #expect(children.last?.1 as? TestSubscriber<Int, TestError> === downstream)
        #expect(!(inner is any CustomDebugStringConvertible))
    }

    @Test func theSubscriberGetsAThinWrapperOfTheUpstreamsSubscription() throws {
        let upstream = ManualConnectable()
        let downstream = TestSubscriber<Int, TestError>(initialDemand: nil)
        upstream.autoconnect().subscribe(downstream)
        let named = NamedSubscription(log: upstream.log)
        upstream.subscribers[0].receive(subscription: named)
        let wrapper = try #require(downstream.subscription)
        #expect(String(describing: wrapper) == "Named")
        let playground = (wrapper as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
        #expect(playground == "Named in a playground")
        #expect(wrapper.combineIdentifier == named.combineIdentifier)
        #expect(!(wrapper is any CustomReflectable))
        #expect(!(wrapper is any CustomDebugStringConvertible))
        downstream.request(.none)
        downstream.request(.max(3))
        downstream.request(.unlimited)
        #expect(named.requests == [.none, .max(3), .unlimited])
    }

    @Test func valuesAndCompletionsPassInAnyState() {
        let upstream = ManualConnectable()
        let downstream = TestSubscriber<Int, TestError>(demandPerValue: .max(1))
        upstream.autoconnect().subscribe(downstream)
        let inner = upstream.subscribers[0]
        #expect(inner.receive(1) == .max(1))
        inner.receive(completion: .finished)
        inner.receive(subscription: NamedSubscription(log: upstream.log))
        #expect(inner.receive(2) == .max(1))
        inner.receive(completion: .failure(.oops))
        #expect(
            downstream.events == [
                .value(1), .completion(.finished), .subscription("Named"), .value(2), .completion(.failure(.oops)),
            ])
    }

    @Test func cancelLowersTheCountThenCancelsTheUpstreamsSubscription() {
        let upstream = ManualConnectable()
        let downstream = TestSubscriber<Int, TestError>()
        upstream.autoconnect().subscribe(downstream)
        upstream.subscribers[0].receive(subscription: NamedSubscription(log: upstream.log))
        downstream.cancel()
        #expect(upstream.log.items == ["subscribe", "connect", "disconnect", "cancel upstream subscription"])
    }

    @Test func aCancelAfterTheCompletionStillCounts() {
        let upstream = ManualConnectable()
        let downstream = TestSubscriber<Int, TestError>()
        upstream.autoconnect().subscribe(downstream)
        let inner = upstream.subscribers[0]
        inner.receive(subscription: NamedSubscription(log: upstream.log))
        inner.receive(completion: .finished)
        downstream.cancel()
        #expect(upstream.log.items.contains("disconnect"))
    }

    @Test func aShareSubscriberThatCancelsAfterTheCompletionDisconnects() {
        let subscriptions = Log<Void>()
        let upstream = PassthroughSubject<Int, Never>()
        let share = upstream.handleEvents(receiveSubscription: { _ in subscriptions.append(()) }).share()
        let first = TestSubscriber<Int, Never>()
        share.subscribe(first)
        first.cancel()
        share.subscribe(TestSubscriber<Int, Never>())
        #expect(subscriptions.items.count == 2)
    }

    /// Combine lowers the count again on every repeated cancel of one subscription, which
    /// disconnects the other subscribers; here each subscription counts once.
    @Test func cancellingOneSubscriptionTwiceCountsOnce() {
        let upstream = ManualConnectable()
        let autoconnect = upstream.autoconnect()
        let a = TestSubscriber<Int, TestError>()
        let b = TestSubscriber<Int, TestError>()
        autoconnect.subscribe(a)
        autoconnect.subscribe(b)
        for subscriber in upstream.subscribers {
            subscriber.receive(subscription: NamedSubscription(log: upstream.log))
        }
        a.cancel()
        a.cancel()
        #expect(!upstream.log.items.contains("disconnect"))
        #expect(upstream.log.items.filter { $0 == "cancel upstream subscription" }.count == 2)
        b.cancel()
        #expect(upstream.log.items.filter { $0 == "disconnect" }.count == 1)
    }

    /// Combine connects a second time for a subscriber that arrives from inside the
    /// first `connect()`; here it joins the connection under way.
    @Test func aSubscriberArrivingDuringTheFirstConnectJoinsIt() {
        let upstream = ManualConnectable()
        let autoconnect = upstream.autoconnect()
        let late = TestSubscriber<Int, TestError>()
        upstream.onConnect = { autoconnect.subscribe(late) }
        autoconnect.subscribe(TestSubscriber<Int, TestError>())
        #expect(upstream.connects == 1)
        #expect(upstream.log.items == ["subscribe", "connect", "subscribe"])
    }

    @Test func whenEverySubscriberLeftDuringConnectTheConnectionIsCancelledAtOnce() {
        let upstream = ManualConnectable()
        let autoconnect = upstream.autoconnect()
        let downstream = TestSubscriber<Int, TestError>()
        upstream.onConnect = {
            upstream.subscribers[0].receive(subscription: NamedSubscription(log: upstream.log))
            downstream.cancel()
        }
        autoconnect.subscribe(downstream)
        #expect(upstream.log.items == ["subscribe", "connect", "cancel upstream subscription", "disconnect"])
        autoconnect.subscribe(TestSubscriber<Int, TestError>())
        #expect(upstream.connects == 2)
    }

    // MARK: The state machines

    @Test func autoconnectStateMachineCountsSubscribers() {
        var machine = AutoconnectStateMachine()
        let connection = AnyCancellable {}
        let arrivals = [machine.subscriberArrived(), machine.subscriberArrived()]
        let kept = machine.connected(connection)
        let third = machine.subscriberArrived()
        let leaving = [machine.subscriberLeft(), machine.subscriberLeft(), machine.subscriberLeft()]
        let extra = machine.subscriberLeft()
        let next = machine.subscriberArrived()
        #expect(arrivals == [true, false])
        #expect(kept == nil)
        #expect(!third)
        #expect(leaving.map { $0 as? AnyCancellable === connection } == [false, false, true])
        #expect(extra == nil)
        #expect(next)
    }

    @Test func autoconnectStateMachineHandsBackAConnectionNobodyUses() {
        var machine = AutoconnectStateMachine()
        let connection = AnyCancellable {}
        let first = machine.subscriberArrived()
        let leaving = [machine.subscriberLeft(), machine.subscriberLeft()]
        let unused = machine.connected(connection)
        let next = machine.subscriberArrived()
        #expect(first)
        #expect(leaving.allSatisfy { $0 == nil })
        #expect(unused as? AnyCancellable === connection)
        #expect(next)
    }

    @Test func autoconnectSubscriptionStateMachineCountsTheFirstCancelOnly() {
        let parent = Tracked()
        var machine = AutoconnectSubscriptionStateMachine(parent: parent)
        let first = machine.cancel()
        let second = machine.cancel()
        #expect(identical(first, parent))
        #expect(second == nil)
    }
}
