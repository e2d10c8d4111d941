import Dispatch
import Streams
import StreamsTesting
import Testing

/// What a ``PlainSubscriber`` saw; it outlives the subscriber, so a test can read it after the
/// subscriber is gone.
private final class Seen<Input: Sendable>: Sendable {
    private let state = Locked<(values: [Input], completions: Int, subscription: Bool)>(([], 0, false))
    /// Signalled on every value and on the completion.
    let arrived = DispatchSemaphore(value: 0)

    var values: [Input] { state.withLock { $0.values } }
    var completions: Int { state.withLock { $0.completions } }
    var subscribed: Bool { state.withLock { $0.subscription } }

    func subscribed(_: Void) { state.withLock { $0.subscription = true } }
    func append(_ value: Input) {
        state.withLock { $0.values.append(value) }
        arrived.signal()
    }
    func complete() {
        state.withLock { $0.completions += 1 }
        arrived.signal()
    }
}

/// A subscriber that does not keep its subscription, as a plain `Subscriber` may: what keeps it
/// alive is only what the pipeline keeps. It asks for everything, or cancels at once or after
/// its first value.
private final class PlainSubscriber<Input: Sendable, Failure: Error>: Subscriber, @unchecked Sendable {
    enum Plan { case request, cancelAtOnce, cancelAfterFirstValue }

    let seen: Seen<Input>
    let plan: Plan
    /// The subscription to cancel on the first value, held only until then.
    private let cancelFirst = Locked<(any Subscription)?>(nil)

    init(_ seen: Seen<Input>, plan: Plan = .request) {
        self.seen = seen
        self.plan = plan
    }

    func receive(subscription: any Subscription) {
        seen.subscribed(())
        switch plan {
        case .request:
            subscription.request(.unlimited)
        case .cancelAtOnce:
            subscription.cancel()
        case .cancelAfterFirstValue:
            cancelFirst.withLock { $0 = subscription }
            subscription.request(.unlimited)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        seen.append(input)
        cancelFirst.withLock { $0.take() }?.cancel()
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) { seen.complete() }
}

/// Sends a subscription that holds nothing, then the values, and never completes: once it has
/// returned, nothing upstream keeps the pipeline alive.
private struct ValuesThenSilence<Output>: Publisher {
    typealias Failure = Never
    let values: [Output]

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(subscription: Subscriptions.empty)
        for value in values { _ = subscriber.receive(value) }
    }
}

/// Pending scheduled work keeps a pipeline alive until it has run, as in Combine, also
/// when nothing else holds it; once it has completed or been cancelled, everything is released.
@Suite("Time operators: lifetimes")
struct TimeOperatorLifetimeTests {
    let scheduler = TestScheduler()

    /// Subscribes a plain subscriber to `publisher` and returns what it sees, plus a weak
    /// reference to it: the publisher and the subscriber are dropped on return.
    private func attach<P: Publisher>(
        _ publisher: P, plan: PlainSubscriber<P.Output, P.Failure>.Plan = .request
    ) -> (Seen<P.Output>, () -> AnyObject?) where P.Output: Sendable {
        let seen = Seen<P.Output>()
        let subscriber = PlainSubscriber<P.Output, P.Failure>(seen, plan: plan)
        publisher.subscribe(subscriber)
        return (seen, { [weak subscriber] in subscriber })
    }

    @Test func timeoutFiresWithNothingElseHoldingThePipeline() {
        let (seen, subscriber) = attach(Empty<Int, Never>(completeImmediately: false).timeout(.seconds(1), scheduler: scheduler))
        #expect(subscriber() != nil)
        scheduler.advance(by: .seconds(1))
        #expect(seen.completions == 1)
        #expect(subscriber() == nil)
        #expect(scheduler.scheduledCount == 0)
    }

    @Test(arguments: [0, -1])
    func aZeroOrNegativeTimeoutFiresAtOnce(_ seconds: Int) {
        let (seen, subscriber) = attach(
            Empty<Int, Never>(completeImmediately: false).timeout(.seconds(seconds), scheduler: scheduler))
        scheduler.advance()
        #expect(seen.completions == 1)
        #expect(subscriber() == nil)
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func aPendingDebouncedValueArrives() {
        let (seen, subscriber) = attach(ValuesThenSilence(values: [1, 2]).debounce(for: .seconds(1), scheduler: scheduler))
        scheduler.advance(by: .seconds(1))
        #expect(seen.values == [2])
        #expect(subscriber() == nil)
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func aDelayedValueArrives() {
        let (seen, subscriber) = attach(ValuesThenSilence(values: [1, 2]).delay(for: .seconds(1), scheduler: scheduler))
        scheduler.advance(by: .seconds(1))
        #expect(seen.values == [1, 2])
        #expect(subscriber() == nil)
    }

    @Test func aValueMovedByReceiveOnArrives() {
        let (seen, subscriber) = attach(ValuesThenSilence(values: [1, 2]).receive(on: scheduler))
        scheduler.advance()
        #expect(seen.values == [1, 2])
        #expect(subscriber() == nil)
    }

    @Test func subscribeOnSubscribesAndRequestsOnTheScheduler() {
        let (seen, subscriber) = attach(Just(1).subscribe(on: scheduler))
        #expect(!seen.subscribed)
        scheduler.advance()  // subscribes, then requests: both scheduled
        #expect(seen.values == [1] && seen.completions == 1)
        #expect(subscriber() == nil)
    }

    @Test func subscribeOnKeepsTheSubscriberUntilTheScheduledCancelHasRun() {
        let seen = Seen<Int>()
        weak var weakSubscriber: PlainSubscriber<Int, Never>?
        let aliveAtCancel = Log<Bool>()
        do {
            let subscriber = PlainSubscriber<Int, Never>(seen, plan: .cancelAtOnce)
            weakSubscriber = subscriber
            Just(1)
                .handleEvents(receiveCancel: { aliveAtCancel.append(weakSubscriber != nil) })
                .subscribe(on: scheduler)
                .subscribe(subscriber)
        }
        scheduler.advance()  // subscribes; the subscriber cancels, which runs later on the scheduler
        #expect(seen.subscribed && seen.values.isEmpty)
        #expect(aliveAtCancel.items == [true])
        #expect(weakSubscriber == nil)
    }

    @Test func collectedValuesArriveAndCancelReleases() {
        let (seen, subscriber) = attach(
            ValuesThenSilence(values: [1, 2]).collect(.byTime(scheduler, .seconds(1))), plan: .cancelAfterFirstValue)
        scheduler.advance(by: .seconds(1))
        #expect(seen.values == [[1, 2]])
        #expect(subscriber() == nil)
        #expect(scheduler.scheduledCount == 0)
    }

    /// As in Combine, throttle's scheduled emission holds the operator weakly: with nothing
    /// else keeping the pipeline alive, the pending value is lost.
    @Test func throttleCapturesWeaklyAsInCombine() {
        let (seen, subscriber) = attach(
            ValuesThenSilence(values: [1]).throttle(for: .seconds(1), scheduler: scheduler, latest: true))
        #expect(subscriber() == nil)
        scheduler.advance(by: .seconds(1))
        #expect(seen.values.isEmpty)
    }

    @Test func measureIntervalSchedulesNothingAndHoldsNothing() {
        let (seen, subscriber) = attach(ValuesThenSilence(values: [1, 2]).measureInterval(using: scheduler))
        #expect(seen.values.count == 2)
        #expect(subscriber() == nil)
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func aConnectedTimerKeepsItsSubscribersAndStopsWhenTheConnectionIsCancelled() {
        var connection: (any Cancellable)?
        let seen = Seen<TestScheduler.SchedulerTimeType>()
        weak var weakSubscriber: PlainSubscriber<TestScheduler.SchedulerTimeType, Never>?
        do {
            let timer = Publishers.Timer(every: .seconds(1), scheduler: scheduler)
            let subscriber = PlainSubscriber<TestScheduler.SchedulerTimeType, Never>(seen)
            weakSubscriber = subscriber
            timer.subscribe(subscriber)
            connection = timer.connect()
        }
        scheduler.advance(by: .seconds(3))
        #expect(seen.values.count == 3)
        #expect(weakSubscriber != nil)
        connection?.cancel()
        connection = nil
        #expect(scheduler.scheduledCount == 0)
        scheduler.advance(by: .seconds(3))
        #expect(seen.values.count == 3)
        // Like a subject's subscriber, it stays until it cancels (it cannot: it kept nothing).
    }

    /// After the downstream cancels or the upstream completes, nothing is left scheduled and
    /// the subscriber and the operators' closures are released.
    @Test(arguments: [
        "debounce", "throttle", "delay", "receive(on:)", "subscribe(on:)", "timeout", "collect(.byTime)", "measureInterval",
    ])
    func cancelAndCompletionReleaseEverything(_ name: String) {
        for plan in [PlainSubscriber<[Int], Never>.Plan.cancelAfterFirstValue, .request] {
            let subject = PassthroughSubject<Int, Never>()
            weak var tracked: Tracked?
            let (seen, subscriber) = { () -> (Seen<[Int]>, () -> AnyObject?) in
                let object = Tracked()
                tracked = object
                let upstream = subject.map { value in withExtendedLifetime(object) { [value] } }
                return attach(Self.operator(name, on: upstream, scheduler: scheduler), plan: plan)
            }()
            scheduler.advance()
            subject.send(1)
            scheduler.advance(by: .seconds(2))
            subject.send(2)
            if plan == .request { subject.send(completion: .finished) }
            scheduler.advance(by: .seconds(2))
            #expect(seen.values.first == [1], "\(name)")
            #expect(seen.completions == (plan == .request ? 1 : 0), "\(name)")
            #expect(scheduler.scheduledCount == 0, "\(name) \(plan): nothing left scheduled")
            #expect(subscriber() == nil, "\(name) \(plan): the subscriber is released")
            #expect(tracked == nil, "\(name) \(plan): closures are released")
        }
    }

    /// `name` applied to `upstream`, as a publisher of arrays so that one test covers all.
    static func `operator`<Upstream: Publisher<[Int], Never>>(
        _ name: String, on upstream: Upstream, scheduler: TestScheduler
    ) -> AnyPublisher<[Int], Never> {
        let second = TestScheduler.SchedulerTimeType.Stride.seconds(1)
        switch name {
        case "debounce": return upstream.debounce(for: second, scheduler: scheduler).eraseToAnyPublisher()
        case "throttle": return upstream.throttle(for: second, scheduler: scheduler, latest: true).eraseToAnyPublisher()
        case "delay": return upstream.delay(for: second, scheduler: scheduler).eraseToAnyPublisher()
        case "receive(on:)": return upstream.receive(on: scheduler).eraseToAnyPublisher()
        case "subscribe(on:)": return upstream.subscribe(on: scheduler).eraseToAnyPublisher()
        case "timeout": return upstream.timeout(.seconds(10), scheduler: scheduler).eraseToAnyPublisher()
        case "collect(.byTime)":
            return upstream.collect(.byTime(scheduler, second)).map { $0.flatMap(\.self) }.eraseToAnyPublisher()
        case "measureInterval": return upstream.measureInterval(using: scheduler).map { _ in [1] }.eraseToAnyPublisher()
        default: fatalError("unknown operator \(name)")
        }
    }

    @Test func onADispatchQueueATimeoutFiresAndADelayedValueArrives() {
        let queue = DispatchQueue(label: "lifetimes")
        let (timedOut, _) = attach(Empty<Int, Never>(completeImmediately: false).timeout(.milliseconds(20), scheduler: queue))
        let (delayed, _) = attach(ValuesThenSilence(values: [7]).delay(for: .milliseconds(20), scheduler: queue))
        #expect(timedOut.arrived.wait(timeout: .now() + 10) == .success)
        #expect(timedOut.completions == 1)
        #expect(delayed.arrived.wait(timeout: .now() + 10) == .success)
        #expect(delayed.values == [7])
    }
}
