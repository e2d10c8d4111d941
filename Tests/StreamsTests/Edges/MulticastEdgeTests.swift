import Dispatch
@testable import Streams
import StreamsTesting
import Testing

/// A subject that only records the subscribers it is given, so that a test can drive the
/// multicast's inner object by hand, as a misbehaving subject could.
private final class CapturingSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    private(set) var subscribers: [AnySubscriber<Output, Failure>] = []

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscribers.append(AnySubscriber(subscriber))
    }

    func send(_ value: Output) {}
    func send(completion: Subscribers.Completion<Failure>) {}
    func send(subscription: any Subscription) {}
}

/// A publisher that keeps its subscribers and sends them nothing until a test does.
private final class HeldPublisher: Publisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never

    private(set) var subscribers: [AnySubscriber<Int, Never>] = []

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscribers.append(AnySubscriber(subscriber))
    }
}

/// Whether `a` and `b` are the same object (the state machines hand objects out as `AnyObject`).
func identical(_ a: AnyObject?, _ b: AnyObject?) -> Bool {
    a === b
}

/// Holds an object weakly, for lifetime checks.
private final class WeakReference<Object: AnyObject> {
    weak var object: Object?
}

@Suite("multicast, makeConnectable, share at the edges")
struct MulticastEdgeTests {
    /// A multicast over a hand-driven subject, one subscriber attached: the inner it made and
    /// the subscription standing for the subject.
    private func attachedInner(
        downstream: TestSubscriber<Int, TestError>
    ) -> (inner: AnySubscriber<Int, TestError>, subscription: RecordingSubscription) {
        let subject = CapturingSubject<Int, TestError>()
        let multicast = Empty<Int, TestError>().multicast(subject: subject)
        multicast.subscribe(downstream)
        return (subject.subscribers[0], RecordingSubscription())
    }

    // MARK: The multicast object

    @Test func theSubjectIsMadeOnTheFirstSubscriberOnceAndKept() {
        var made = 0
        let multicast = PassthroughSubject<Int, Never>().multicast { () -> PassthroughSubject<Int, Never> in
            made += 1
            return PassthroughSubject()
        }
        #expect(made == 0)
        multicast.subscribe(TestSubscriber<Int, Never>())
        #expect(made == 1)
        multicast.subscribe(TestSubscriber<Int, Never>())
        let connection = multicast.connect()
        #expect(made == 1)
        connection.cancel()
    }

    @Test func theSubjectIsMadeOnConnectWhenThatComesFirst() {
        var made = 0
        let multicast = PassthroughSubject<Int, Never>().multicast { () -> PassthroughSubject<Int, Never> in
            made += 1
            return PassthroughSubject()
        }
        let connection = multicast.connect()
        #expect(made == 1)
        multicast.subscribe(TestSubscriber<Int, Never>())
        #expect(made == 1)
        connection.cancel()
    }

    @Test func theConnectionHoldsTheSubjectWeakly() {
        let made = WeakReference<PassthroughSubject<Int, Never>>()
        let upstream = PassthroughSubject<Int, Never>()
        var connection: (any Cancellable)?
        do {
            let multicast = upstream.multicast { () -> PassthroughSubject<Int, Never> in
                let subject = PassthroughSubject<Int, Never>()
                made.object = subject
                return subject
            }
            connection = multicast.connect()
            #expect(made.object != nil)
        }
        #expect(made.object == nil)
        upstream.send(1)
        connection?.cancel()
    }

    @Test func aSubjectKeptBySubscribersStillReceivesOnceTheMulticastHasGone() {
        let upstream = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        var connection: (any Cancellable)?
        do {
            let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
            multicast.subscribe(subscriber)
            connection = multicast.connect()
        }
        upstream.send(1)
        #expect(subscriber.values == [1])
        subscriber.cancel()
        upstream.send(2)
        #expect(subscriber.values == [1])
        connection?.cancel()
    }

    @Test func theMulticastGoingAwayDuringADeliveryLetsTheSubjectGoAfterIt() {
        final class Holder: @unchecked Sendable {
            var multicast: Publishers.Multicast<PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>>?
        }
        let made = WeakReference<PassthroughSubject<Int, Never>>()
        let upstream = PassthroughSubject<Int, Never>()
        let holder = Holder()
        holder.multicast = upstream.multicast { () -> PassthroughSubject<Int, Never> in
            let subject = PassthroughSubject<Int, Never>()
            made.object = subject
            return subject
        }
        let subscriber = TestSubscriber<Int, Never>(onValue: { _ in holder.multicast = nil })
        holder.multicast?.subscribe(subscriber)
        let connection = holder.multicast?.connect()
        upstream.send(1)  // the multicast goes away inside this delivery
        #expect(subscriber.values == [1])
        #expect(made.object != nil)  // the subscriber's subscription still keeps the subject
        subscriber.cancel()
        #expect(made.object == nil)
        upstream.send(2)
        #expect(subscriber.values == [1])
        connection?.cancel()
    }

    @Test func aSubscriptionArrivingAfterTheSubjectWentIsCancelled() throws {
        let upstream = HeldPublisher()
        var connection: (any Cancellable)?
        do {
            let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
            connection = multicast.connect()
        }
        let late = RecordingSubscription()
        try #require(upstream.subscribers.first).receive(subscription: late)
        #expect(late.cancels == 1)
        connection?.cancel()
    }

    @Test func connectingTwiceSubscribesTheSubjectTwice() {
        let subscriptions = Log<Void>()
        let multicast = PassthroughSubject<Int, Never>()
            .handleEvents(receiveSubscription: { _ in subscriptions.append(()) })
            .multicast { PassthroughSubject<Int, Never>() }
        let first = multicast.connect()
        let second = multicast.connect()
        #expect(subscriptions.items.count == 2)
        first.cancel()
        second.cancel()
    }

    @Test func aSubscriberKeepsItsPipelineFlowingAfterTheMulticastIsLetGo() {
        let upstream = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        var connection: (any Cancellable)?
        do {
            let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
            multicast.subscribe(subscriber)
            connection = multicast.connect()
        }
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription("Multicast"), .value(1), .completion(.finished)])
        connection?.cancel()
    }

    // MARK: What each subscriber gets

    @Test func eachSubscriberGetsAMulticastSubscriptionOfItsOwn() throws {
        let multicast = PassthroughSubject<Int, Never>().multicast { PassthroughSubject<Int, Never>() }
        let a = TestSubscriber<Int, Never>()
        let b = TestSubscriber<Int, Never>()
        multicast.subscribe(a)
        multicast.subscribe(b)
        let first = try #require(a.subscription)
        let second = try #require(b.subscription)
        #expect(first.combineIdentifier != second.combineIdentifier)
        #expect(String(describing: first) == "Multicast")
        #expect((first as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Multicast")
        #expect(first is any CustomReflectable)
        #expect(Mirror(reflecting: first).children.isEmpty)
        #expect(!(first is any CustomDebugStringConvertible))
    }

    @Test func makeConnectableAndShareHandTheMulticastSubscriptionDownstream() {
        let connectable = TestSubscriber<Int, Never>()
        PassthroughSubject<Int, Never>().makeConnectable().subscribe(connectable)
        let shared = TestSubscriber<Int, Never>()
        let share = PassthroughSubject<Int, Never>().share()
        share.subscribe(shared)
        #expect(connectable.events == [.subscription("Multicast")])
        #expect(shared.events == [.subscription("Multicast")])
        shared.cancel()
    }

    @Test func subscribingAfterTheSubjectCompletedGivesTheMulticastSubscriptionThenTheCompletion() {
        let subject = PassthroughSubject<Int, TestError>()
        let multicast = Empty<Int, TestError>(completeImmediately: false).multicast(subject: subject)
        subject.send(completion: .failure(.oops))
        let late = TestSubscriber<Int, TestError>()
        multicast.subscribe(late)
        #expect(late.events == [.subscription("Multicast"), .completion(.failure(.oops))])
    }

    @Test func theSubscriptionIsLetGoAfterCompletionAndAfterCancel() {
        let finished = WeakReference<TestSubscriber<Int, Never>>()
        let cancelled = WeakReference<TestSubscriber<Int, Never>>()
        let upstream = PassthroughSubject<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        do {
            let a = TestSubscriber<Int, Never>()
            let b = TestSubscriber<Int, Never>()
            finished.object = a
            cancelled.object = b
            multicast.subscribe(a)
            multicast.subscribe(b)
        }
        let connection = multicast.connect()
        cancelled.object?.cancel()
        #expect(cancelled.object == nil)
        upstream.send(completion: .finished)
        #expect(finished.object == nil)
        connection.cancel()
    }

    @Test func cancellingWhileOtherThreadsSendThroughShareEndsEverySubscriber() {
        let subject = PassthroughSubject<Int, Never>()
        let share = subject.share()
        let subscribers = (0..<4).map { _ in TestSubscriber<Int, Never>() }
        subscribers.forEach { share.subscribe($0) }
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            if index < 4 {
                for value in 0..<500 { subject.send(value) }
            } else {
                subscribers[index - 4].cancel()
            }
        }
        let counts = subscribers.map(\.values.count)
        subject.send(-1)
        #expect(subscribers.map(\.values.count) == counts)
        #expect(subscribers.allSatisfy { !$0.values.contains(-1) })
    }

    // MARK: The inner object, driven by hand

    @Test func theSubjectsSubscriberStandsForTheMulticastSubscription() throws {
        let downstream = TestSubscriber<Int, TestError>()
        let (inner, subscription) = attachedInner(downstream: downstream)
        inner.receive(subscription: subscription)
        let handed = try #require(downstream.subscription)
        #expect(String(describing: inner) == "Multicast")
        #expect(String(describing: handed) == "Multicast")
        #expect(inner.combineIdentifier == handed.combineIdentifier)
    }

    @Test func aCancelledSubscriberIsLetGoWithTheSubjectsSubscriptionWhileTheSubjectLives() {
        let cancelled = WeakReference<TestSubscriber<Int, Never>>()
        let subject = PassthroughSubject<Int, Never>()
        let multicast = Empty<Int, Never>().multicast(subject: subject)
        let kept = TestSubscriber<Int, Never>()
        multicast.subscribe(kept)
        do {
            let subscriber = TestSubscriber<Int, Never>()
            cancelled.object = subscriber
            multicast.subscribe(subscriber)
            subscriber.cancel()
        }
        #expect(cancelled.object == nil)
        subject.send(1)
        #expect(kept.values == [1])
    }

    @Test func beforeTheSubjectsSubscriptionValuesAndCompletionsAreIgnored() {
        let downstream = TestSubscriber<Int, TestError>()
        let (inner, _) = attachedInner(downstream: downstream)
        #expect(inner.receive(1) == .none)
        inner.receive(completion: .finished)
        #expect(downstream.events.isEmpty)
    }

    @Test func onTheSubjectsSubscriptionTheInnerHandsItselfDownstreamAndCancelsASecondOne() {
        let downstream = TestSubscriber<Int, TestError>(initialDemand: .max(2))
        let (inner, subscription) = attachedInner(downstream: downstream)
        inner.receive(subscription: subscription)
        let second = RecordingSubscription()
        inner.receive(subscription: second)
        #expect(downstream.events == [.subscription("Multicast")])
        #expect(subscription.requests == [.max(2)])
        #expect(subscription.cancels == 0)
        #expect(second.cancels == 1)
        #expect(second.requests.isEmpty)
    }

    @Test func valuesReturnNoneAndTheDownstreamsDemandIsRequestedFromTheSubject() {
        let downstream = TestSubscriber<Int, TestError>(initialDemand: nil, demandPerValue: .max(3))
        let (inner, subscription) = attachedInner(downstream: downstream)
        inner.receive(subscription: subscription)
        #expect(inner.receive(1) == .none)
        #expect(downstream.values == [1])
        #expect(subscription.requests == [.max(3)])
    }

    @Test func noDemandReturnedMeansNoRequest() {
        let downstream = TestSubscriber<Int, TestError>(initialDemand: nil, demandPerValue: .none)
        let (inner, subscription) = attachedInner(downstream: downstream)
        inner.receive(subscription: subscription)
        _ = inner.receive(1)
        #expect(subscription.requests.isEmpty)
    }

    @Test func requestsIncludingNoneGoToTheSubjectWhileSubscribed() {
        let downstream = TestSubscriber<Int, TestError>(initialDemand: nil)
        let (inner, subscription) = attachedInner(downstream: downstream)
        inner.receive(subscription: subscription)
        downstream.request(.none)
        downstream.request(.max(4))
        #expect(subscription.requests == [.none, .max(4)])
    }

    @Test func theFirstCompletionIsForwardedAndEndsTheInner() {
        let downstream = TestSubscriber<Int, TestError>(initialDemand: nil)
        let (inner, subscription) = attachedInner(downstream: downstream)
        inner.receive(subscription: subscription)
        inner.receive(completion: .failure(.oops))
        inner.receive(completion: .finished)
        #expect(inner.receive(1) == .none)
        downstream.request(.max(1))
        downstream.cancel()
        #expect(downstream.events == [.subscription("Multicast"), .completion(.failure(.oops))])
        #expect(subscription.requests.isEmpty)
        #expect(subscription.cancels == 0)
    }

    @Test func theFirstCancelGoesToTheSubjectAndEndsTheInner() {
        let downstream = TestSubscriber<Int, TestError>(initialDemand: nil)
        let (inner, subscription) = attachedInner(downstream: downstream)
        inner.receive(subscription: subscription)
        downstream.cancel()
        downstream.cancel()
        downstream.request(.max(1))
        #expect(inner.receive(1) == .none)
        inner.receive(completion: .finished)
        #expect(subscription.cancels == 1)
        #expect(subscription.requests.isEmpty)
        #expect(downstream.events == [.subscription("Multicast")])
    }

    @Test func aCompletionSentFromInsideADeliveryArrivesOnceAndEndsTheInner() {
        var inner: AnySubscriber<Int, TestError>?
        let downstream = TestSubscriber<Int, TestError>(onValue: { _ in inner?.receive(completion: .finished) })
        let attached = attachedInner(downstream: downstream)
        inner = attached.inner
        attached.inner.receive(subscription: attached.subscription)
        _ = attached.inner.receive(1)
        _ = attached.inner.receive(2)
        #expect(downstream.events == [.subscription("Multicast"), .completion(.finished), .value(1)])
        inner = nil
    }

    // MARK: The state machines

    @Test func multicastInnerStateMachinePhases() {
        // (`forward` and `released` read the completion action: see the extension below.)
        let subject = Tracked()
        let subscription = RecordingSubscription()
        var machine = MulticastInnerStateMachine(subject: subject)
        let early = machine.receiveCompletion()
        let earlyRequest = machine.request()
        let first = machine.receiveSubscription(subscription)
        let second = machine.receiveSubscription(RecordingSubscription())
        let requested = machine.request()
        let cancelled = machine.cancel()
        let cancelledAgain = machine.cancel()
        let lateCompletion = machine.receiveCompletion()
        let lateRequest = machine.request()
        #expect(!early.forward)
        #expect(early.released == nil)
        #expect(earlyRequest == nil)
        #expect(first, "the first subscription is handed downstream")
        #expect(!second, "a second subscription is cancelled")
        guard case .end(let toCancel, let released) = cancelled, case .ignore = cancelledAgain else {
            Issue.record("the first cancel ends the inner, the second is ignored")
            return
        }
        #expect(requested as? RecordingSubscription === subscription)
        #expect(toCancel as? RecordingSubscription === subscription)
        #expect(identical(released, subject), "the subject is handed out at the end, to be released")
        #expect(!lateCompletion.forward)
        #expect(lateRequest == nil)
    }

    @Test func multicastInnerStateMachineEndsAtTheFirstCompletion() {
        let subject = Tracked()
        var machine = MulticastInnerStateMachine(subject: subject)
        _ = machine.receiveSubscription(RecordingSubscription())
        let completion = machine.receiveCompletion()
        let secondCompletion = machine.receiveCompletion()
        let cancelled = machine.cancel()
        #expect(completion.forward)
        #expect(identical(completion.released, subject))
        #expect(!secondCompletion.forward)
        #expect(machine.request() == nil)
        guard case .ignore = cancelled else {
            Issue.record("a cancel after the completion is ignored")
            return
        }
    }

    @Test func multicastInnerStateMachineCancelledBeforeItsSubscription() {
        var machine = MulticastInnerStateMachine(subject: Tracked())
        let cancelled = machine.cancel()
        let late = machine.receiveSubscription(RecordingSubscription())
        guard case .end(nil, _) = cancelled, !late else {
            Issue.record("an early cancel ends the inner; the late subscription is cancelled")
            return
        }
    }

    @Test func multicastStateMachineKeepsTheFirstSubjectMade() {
        var machine = MulticastStateMachine<PassthroughSubject<Int, Never>>()
        let first = PassthroughSubject<Int, Never>()
        let before = machine.subject()
        let kept = machine.keep(first)
        let keptAgain = machine.keep(PassthroughSubject())
        #expect(before == nil)
        #expect(kept === first)
        #expect(keptAgain === first)
        #expect(machine.subject() === first)
    }
}

extension MulticastInnerStateMachine.CompletionAction {
    /// Whether the completion is forwarded.
    fileprivate var forward: Bool {
        if case .forward = self { true } else { false }
    }

    /// The subject handed out to be released, if any.
    fileprivate var released: AnyObject? {
        if case .forward(let released) = self { released } else { nil }
    }
}
