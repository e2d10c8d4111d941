import Streams
import StreamsTesting
import Testing

/// Combine's rules at the edges of the subjects, `@Published`, `ObservableObjectPublisher` and
/// `Future`: what their subscriptions show, how long they keep their subject, the demand they
/// ask of their upstreams, and zero demand.
@Suite struct SubjectEdgeTests {
    final class Model: ObservableObject {
        @Published var count = 0
    }

    /// Subscribes a subscriber that requests `demand` and returns it with its subscription.
    private func subscribe<P: Publisher>(
        _ publisher: P, demand: Subscribers.Demand? = nil
    ) throws -> (TestSubscriber<P.Output, P.Failure>, any Subscription) {
        let subscriber = TestSubscriber<P.Output, P.Failure>(initialDemand: demand)
        publisher.subscribe(subscriber)
        return (subscriber, try #require(subscriber.subscription))
    }

    private func children(_ object: Any) -> [(label: String?, value: Any)] {
        Mirror(reflecting: object).children.map { ($0.label, $0.value) }
    }

    /// The object a mirror child holds (through an optional), if any.
    private func object(_ value: Any) -> ObjectIdentifier? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return ObjectIdentifier(value as AnyObject) }
        return mirror.children.first.map { ObjectIdentifier($0.value as AnyObject) }
    }

    private func isNil(_ value: Any) -> Bool {
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }

    // MARK: Descriptions and mirrors

    @Test(arguments: ["PassthroughSubject", "CurrentValueSubject", "PublishedSubject"])
    func conduitsShowTheirSubjectUntilCancelled(kind: String) throws {
        let model = Model()
        let subject: AnyObject
        let publisher: AnyPublisher<Int, Never>
        switch kind {
        case "PassthroughSubject":
            let passthrough = PassthroughSubject<Int, Never>()
            (subject, publisher) = (passthrough, passthrough.eraseToAnyPublisher())
        case "CurrentValueSubject":
            let currentValue = CurrentValueSubject<Int, Never>(0)
            (subject, publisher) = (currentValue, currentValue.eraseToAnyPublisher())
        default:
            subject = model
            publisher = model.$count.eraseToAnyPublisher()
        }
        let (subscriber, subscription) = try subscribe(publisher, demand: .max(3))
        #expect(String(describing: subscription) == kind)
        #expect((subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == kind)
        #expect(!(subscription is any CustomDebugStringConvertible))
        let live = children(subscription)
        #expect(live.map(\.label) == ["parent", "downstream", "demand", "subject"])
        let parent = try #require(object(live[0].value))
        #expect(parent == object(live[3].value))
        if kind == "PublishedSubject" {
            // The property's own subject, an object of a type named PublishedSubject, the same
            // for every subscriber.
            #expect(String(describing: live[0].value).contains("PublishedSubject"))
            #expect(String(describing: live[3].value).contains("PublishedSubject"))
            #expect(!String(describing: live[0].value).contains("CurrentValueSubject"))
            let (_, other) = try subscribe(publisher)
            #expect(object(children(other)[0].value) == parent)
        } else {
            #expect(parent == ObjectIdentifier(subject))
        }
        #expect(object(live[1].value) == ObjectIdentifier(subscriber))
        // The current value took one of the three.
        #expect(live[2].value as? Subscribers.Demand == (kind == "PassthroughSubject" ? .max(3) : .max(2)))

        subscription.cancel()
        let cancelled = children(subscription)
        #expect(cancelled.map(\.label) == ["parent", "downstream", "demand", "subject"])
        #expect(isNil(cancelled[0].value))
        #expect(isNil(cancelled[1].value))
        #expect(isNil(cancelled[3].value))
    }

    @Test func aCompletedConduitShowsNoSubject() throws {
        let subject = PassthroughSubject<Int, Never>()
        let (_, subscription) = try subscribe(subject)
        subject.send(completion: .finished)
        let completed = children(subscription)
        #expect(isNil(completed[0].value))
        #expect(isNil(completed[3].value))
    }

    @Test func observableObjectPublisherSubscriptionShowsItsDownstream() throws {
        let (subscriber, subscription) = try subscribe(ObservableObjectPublisher())
        #expect(String(describing: subscription) == "ObservableObjectPublisher")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "ObservableObjectPublisher")
        #expect(!(subscription is any CustomDebugStringConvertible))
        let live = children(subscription)
        #expect(live.map(\.label) == ["downstream"])
        #expect(live.first.flatMap { object($0.value) } == ObjectIdentifier(subscriber))
    }

    @Test func futureSubscriptionLetsGoOfItsDownstreamAndKeepsTheFutureARequestSent() throws {
        let future = Future<Int, Never> { $0(.success(1)) }
        let (subscriber, subscription) = try subscribe(future, demand: nil)
        let waiting = children(subscription)
        #expect(waiting.map(\.label) == ["parent", "downstream", "hasAnyDemand", "subject"])
        #expect(object(waiting[0].value) == ObjectIdentifier(future))
        #expect(waiting[2].value as? Bool == false)
        subscription.request(.max(1))
        #expect(subscriber.values == [1])
        // As in Combine, the future stays when a request sent its result.
        let completed = children(subscription)
        #expect(object(completed[0].value) == ObjectIdentifier(future))
        #expect(isNil(completed[1].value))
        #expect(completed[2].value as? Bool == false)
        #expect(object(completed[3].value) == ObjectIdentifier(future))
    }

    // MARK: Lifetime

    @Test func aSubscriptionKeepsItsSubjectAliveUntilCancelled() throws {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        let subscription: any Subscription
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            subscription = try subscribe(subject, demand: .unlimited).1
        }
        #expect(weakSubject != nil)
        weakSubject?.send(1)
        subscription.cancel()
        #expect(weakSubject == nil)
    }

    @Test func aSubscriptionKeepsItsSubjectAliveUntilTheCompletion() throws {
        weak var weakSubject: CurrentValueSubject<Int, Never>?
        let subscriber: TestSubscriber<Int, Never>
        do {
            let subject = CurrentValueSubject<Int, Never>(0)
            weakSubject = subject
            subscriber = try subscribe(subject, demand: .unlimited).0
        }
        #expect(weakSubject != nil)
        weakSubject?.send(completion: .finished)
        #expect(weakSubject == nil)
        #expect(subscriber.values == [0])
        #expect(subscriber.completion == .finished)
    }

    // MARK: Upstream demand

    @Test func aCurrentValueSubjectFollowsItsUpstreamWithoutSubscribers() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let cancellable = [1, 2, 3].publisher.subscribe(subject)
        #expect(subject.value == 3)
        cancellable.cancel()
    }

    @Test func aCurrentValueSubjectAsksEveryUpstreamForUnlimitedAtOnce() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let first = RecordingSubscription()
        subject.send(subscription: first)
        #expect(first.requests == [.unlimited])
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        let second = RecordingSubscription()
        subject.send(subscription: second)
        #expect(first.requests == [.unlimited])
        #expect(second.requests == [.unlimited])
    }

    @Test func aPassthroughSubjectAsksAllKeptUpstreamsOnTheFirstDemandEver() throws {
        let subject = PassthroughSubject<Int, Never>()
        let early = [RecordingSubscription(), RecordingSubscription()]
        for upstream in early { subject.send(subscription: upstream) }
        let (_, subscription) = try subscribe(subject)
        #expect(early.allSatisfy { $0.requests.isEmpty })
        subscription.request(.max(1))
        #expect(early.allSatisfy { $0.requests == [.unlimited] })
        subscription.cancel()
        // Demand was requested once: later upstreams are asked at once, even with no subscriber.
        let late = RecordingSubscription()
        subject.send(subscription: late)
        #expect(late.requests == [.unlimited])
    }

    /// As in Combine (quirk 11 in the index of Docs/MigratingFromCombine.md): upstream
    /// subscriptions given to `send(subscription:)` stay after the completion and are cancelled
    /// when the subject goes away.
    @Test(arguments: [false, true])
    func upstreamSubscriptionsOutliveTheCompletionUntilTheSubjectGoesAway(currentValue: Bool) {
        let upstream = RecordingSubscription()
        do {
            let subject: any Subject<Int, Never> =
                currentValue ? CurrentValueSubject<Int, Never>(0) : PassthroughSubject<Int, Never>()
            subject.send(subscription: upstream)
            subject.send(completion: .finished)
            #expect(upstream.cancels == 0)
        }
        #expect(upstream.cancels == 1)
    }

    // MARK: Zero demand

    /// A subscriber that missed values because it had no demand gets the subject's value at the
    /// time of its next request, not the last value offered to it.
    @Test func aSubscriberBehindReceivesTheCurrentValueOnItsNextRequest() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let resetter = TestSubscriber<Int, Never> { value in
            if value == 8 { subject.value = 9 }
        }
        subject.subscribe(resetter)
        let slow = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subject.subscribe(slow)
        // `resetter` turns 8 into 9 before `slow` is offered 8.
        subject.send(8)
        #expect(slow.values == [0])
        slow.request(.max(1))
        #expect(slow.values == [0, 9])
        #expect(resetter.values == [0, 8, 9])
    }

    /// A subscriber behind gets the current value on its next request only: demand that its
    /// `receive(_:)` returns serves values sent after it.
    @Test func demandReturnedByADeliveryDoesNotDeliverTheValueMissed() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1)) { value in
            if value == 0 { subject.send(1) }  // no demand left: dropped
        }
        subject.subscribe(subscriber)
        #expect(subscriber.values == [0])
        subject.send(2)
        #expect(subscriber.values == [0, 2])
        subject.send(3)
        #expect(subscriber.values == [0, 2, 3])
    }

    /// A request made while the value is being delivered, by the subscriber itself, gives it the
    /// value it missed right after the delivery.
    @Test func aRequestDuringADeliveryDeliversTheValueMissedRightAfter() {
        let subject = CurrentValueSubject<Int, Never>(0)
        var subscriber: TestSubscriber<Int, Never>?
        subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1)) { value in
            guard value == 0 else { return }
            subject.send(1)  // no demand left: dropped
            subscriber?.request(.max(1))
        }
        subject.subscribe(subscriber!)
        #expect(subscriber?.values == [0, 1])
        subject.send(2)
        #expect(subscriber?.values == [0, 1])
        subscriber = nil
    }

    @Test func aPassthroughSubjectForgetsWhatItDropped() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        subject.subscribe(subscriber)
        subject.send(1)
        subscriber.request(.max(1))
        #expect(subscriber.values.isEmpty)
    }

    @Test func zeroDemandIsAnAPIViolation() async {
        await #expect(processExitsWith: .failure) {
            PassthroughSubject<Int, Never>().sink { _ in }.cancel()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
            PassthroughSubject<Int, Never>().subscribe(subscriber)
            subscriber.request(.none)
        }
        await #expect(processExitsWith: .failure) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
            CurrentValueSubject<Int, Never>(0).subscribe(subscriber)
            subscriber.request(.none)
        }
        await #expect(processExitsWith: .failure) {
            let model = Model()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
            model.$count.subscribe(subscriber)
            subscriber.request(.none)
        }
        await #expect(processExitsWith: .failure) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
            Future<Int, Never> { _ in }.subscribe(subscriber)
            subscriber.request(.none)
        }
    }

    @Test func observableObjectPublisherIgnoresZeroDemand() throws {
        let publisher = ObservableObjectPublisher()
        let (subscriber, subscription) = try subscribe(publisher)
        subscription.request(.none)
        publisher.send()
        #expect(subscriber.values.isEmpty)
    }

    /// Quirk 15 in the index of Docs/MigratingFromCombine.md: Combine delivers every signal once
    /// anything was requested; Streams honours the amount.
    @Test func observableObjectPublisherHonoursTheDemandAmount() throws {
        let publisher = ObservableObjectPublisher()
        let (subscriber, subscription) = try subscribe(publisher)
        publisher.send()
        subscription.request(.max(1))
        publisher.send()
        publisher.send()
        #expect(subscriber.values.count == 1)
        subscription.cancel()
        publisher.send()
        #expect(subscriber.values.count == 1)
    }

    // MARK: @Published

    @Test func assigningTheProjectedValueChangesNothing() {
        let a = Model()
        let b = Model()
        b.count = 5
        a.$count = b.$count
        let seen = TestSubscriber<Int, Never>()
        a.$count.subscribe(seen)
        a.count = 1
        b.count = 6
        #expect(seen.values == [0, 1])
        #expect(a.count == 1)
    }
}
