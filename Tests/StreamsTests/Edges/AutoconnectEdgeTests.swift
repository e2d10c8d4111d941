@testable import Streams
import StreamsTesting
import Testing

/// A connectable publisher driven by hand: it logs subscribes and connects, keeps the last
/// subscriber, runs `onConnect` inside `connect()` and `onDisconnect` inside the connection's
/// `cancel()`.
private final class ManualConnectable: ConnectablePublisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = TestError

    let log = Log<String>()
    var onConnect: () -> Void = {}
    var onDisconnect: () -> Void = {}
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
        return AnyCancellable { [self] in
            log.append("disconnect")
            onDisconnect()
        }
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

    /// The last subscriber left and its connection is being cancelled; a subscriber arrives
    /// meanwhile (here from inside that cancel, in the wild from another thread, between the
    /// count reaching zero and the cancel). It must not connect while the old connection still
    /// runs: both would feed the subject, which would receive each upstream value twice (a
    /// `share(replay:)` subscriber then saw a value repeated). The canceller connects for it as
    /// soon as the cancel has returned.
    @Test func aSubscriberArrivingWhileTheLastOneDisconnectsConnectsAfterTheCancelReturned() {
        let upstream = ManualConnectable()
        let autoconnect = upstream.autoconnect()
        let first = TestSubscriber<Int, TestError>()
        autoconnect.subscribe(first)
        upstream.subscribers[0].receive(subscription: NamedSubscription(log: upstream.log))
        let late = TestSubscriber<Int, TestError>()
        upstream.onDisconnect = {
            upstream.onDisconnect = {}
            autoconnect.subscribe(late)
            upstream.log.append("old connection still running")
        }
        first.cancel()
        #expect(upstream.connects == 2)
        #expect(
            upstream.log.items == [
                "subscribe", "connect", "disconnect", "subscribe", "old connection still running", "connect",
                "cancel upstream subscription",
            ])
        upstream.subscribers[1].receive(subscription: NamedSubscription(log: upstream.log))
        late.cancel()
        #expect(upstream.log.items.suffix(2) == ["disconnect", "cancel upstream subscription"])
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
        let reconnect = machine.disconnected()
        let next = machine.subscriberArrived()
        #expect(arrivals == [true, false])
        #expect(kept == nil)
        #expect(!third)
        #expect(leaving.map { $0 as? AnyCancellable === connection } == [false, false, true])
        #expect(extra == nil)
        #expect(!reconnect)
        #expect(next)
    }

    @Test func autoconnectStateMachineHandsBackAConnectionNobodyUses() {
        var machine = AutoconnectStateMachine()
        let connection = AnyCancellable {}
        let first = machine.subscriberArrived()
        let leaving = [machine.subscriberLeft(), machine.subscriberLeft()]
        let unused = machine.connected(connection)
        let reconnect = machine.disconnected()
        let next = machine.subscriberArrived()
        #expect(first)
        #expect(leaving.allSatisfy { $0 == nil })
        #expect(unused as? AnyCancellable === connection)
        #expect(!reconnect)
        #expect(next)
    }

    @Test func autoconnectStateMachineConnectsForSubscribersThatArriveWhileItDisconnects() {
        // Until the old connection's cancel returns, arrivals only count: the canceller connects
        // for them afterwards, so that two connections never overlap.
        var machine = AutoconnectStateMachine()
        let connection = AnyCancellable {}
        _ = machine.subscriberArrived()
        _ = machine.connected(connection)
        let cancelling = machine.subscriberLeft()
        let arrivals = [machine.subscriberArrived(), machine.subscriberArrived()]
        let leaving = machine.subscriberLeft()
        let reconnect = machine.disconnected()
        let kept = machine.connected(AnyCancellable {})
        let last = machine.subscriberLeft()
        #expect(cancelling as? AnyCancellable === connection)
        #expect(arrivals == [false, false])
        #expect(leaving == nil)
        #expect(reconnect)
        #expect(kept == nil)
        #expect(last != nil)
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
