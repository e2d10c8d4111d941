import Streams
import StreamsExt
import StreamsResilience
import StreamsTesting
import Testing

/// The rules `retry(_:)`, `retry(_:when:backoff:scheduler:)` and `retry(on:)` share, because they
/// share one subscription: each test runs against all three, set to retry at once.
@Suite("The retry family's subscription")
struct ResubscribingSubscriptionTests {
    enum Operator: String, CaseIterable, CustomTestStringConvertible {
        case retry = "Retry"
        case selectiveRetry = "SelectiveRetry"
        case retryOn = "RetryOn"

        var testDescription: String { rawValue }

        /// `upstream` with this operator applied, retrying synchronously up to `retries` times
        /// (`retry(on:)` has no count: its trigger always fires).
        func apply<Upstream: Publisher>(to upstream: Upstream, retries: Int = 5) -> AnyPublisher<
            Upstream.Output, Upstream.Failure
        > {
            switch self {
            case .retry:
                upstream.retry(retries).eraseToAnyPublisher()
            case .selectiveRetry:
                upstream.retry(retries, when: { _ in true }, backoff: .immediate, scheduler: ImmediateScheduler.shared)
                    .eraseToAnyPublisher()
            case .retryOn:
                upstream.retry(on: { _ in Just(()) }).eraseToAnyPublisher()
            }
        }
    }

    @Test(arguments: Operator.allCases)
    func oneObjectIsTheDownstreamsSubscriptionAndTheSubscriberOfEveryAttempt(_ op: Operator) throws {
        let probe = Probe()
        probe.onSubscribe = { subscriber, attempt in
            subscriber.receive(subscription: RecordingSubscription())
            if attempt < 3 { subscriber.receive(completion: .failure(.oops)) }
        }
        let subscriber = TestSubscriber<Int, TestError>()
        op.apply(to: probe).subscribe(subscriber)
        probe.subscribers.last?.receive(completion: .finished)
        #expect(probe.subscribers.count == 3)
        let downstreamSubscription = try #require(subscriber.subscription) as AnyObject
        #expect(probe.rawSubscribers.allSatisfy { $0 === downstreamSubscription })
        #expect(subscriber.subscriptionCount == 1)
        #expect(subscriber.completion == .finished)
    }

    @Test(arguments: Operator.allCases)
    func describesItselfWithAnEmptyMirror(_ op: Operator) throws {
        let subscriber = TestSubscriber<Int, TestError>()
        op.apply(to: PassthroughSubject<Int, TestError>()).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == op.rawValue)
        #expect(Mirror(reflecting: subscription).children.isEmpty)
        let playground = try #require(subscription as? any CustomPlaygroundDisplayConvertible)
        #expect(playground.playgroundDescription as? String == op.rawValue)
        #expect(!(subscription is any CustomDebugStringConvertible))
    }

    @Test(arguments: Operator.allCases)
    func aCancelBeforeAnyUpstreamSubscriptionIsFinal(_ op: Operator) throws {
        let probe = Probe()
        let late = RecordingSubscription()
        probe.onSubscribe = { _, _ in }
        let subscriber = TestSubscriber<Int, TestError>()
        op.apply(to: probe).subscribe(subscriber)
        let inner = try #require(probe.rawSubscribers.first as? any Subscription)
        inner.cancel()
        probe.subscribers[0].receive(subscription: late)
        #expect(late.cancels == 1)
        #expect(late.requests.isEmpty)
        #expect(subscriber.subscriptionCount == 0)
    }

    @Test(arguments: Operator.allCases)
    func demandRequestedBeforeTheUpstreamSubscriptionIsAskedOfIt(_ op: Operator) throws {
        let probe = Probe()
        let subscription = RecordingSubscription()
        probe.onSubscribe = { _, _ in }
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        op.apply(to: probe).subscribe(subscriber)
        let inner = try #require(probe.rawSubscribers.first as? any Subscription)
        inner.request(.max(2))
        probe.subscribers[0].receive(subscription: subscription)
        #expect(subscriber.subscriptionCount == 1)
        #expect(subscription.requests == [.max(2)])
    }

    @Test(arguments: Operator.allCases)
    func aValueReturnsNoneAndTheDownstreamsAnswerIsRequestedUpstream(_ op: Operator) {
        let probe = Probe()
        let subscription = RecordingSubscription()
        probe.onSubscribe = { subscriber, _ in subscriber.receive(subscription: subscription) }
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), demandPerValue: .max(2))
        op.apply(to: probe).subscribe(subscriber)
        #expect(probe.subscribers[0].receive(1) == .none)
        #expect(subscriber.values == [1])
        #expect(subscription.requests == [.max(1), .max(2)])
    }

    @Test(arguments: Operator.allCases)
    func outstandingDemandCarriesOverToTheNextAttempt(_ op: Operator) {
        let probe = Probe()
        let subscriptions = [RecordingSubscription(), RecordingSubscription()]
        probe.onSubscribe = { subscriber, attempt in subscriber.receive(subscription: subscriptions[attempt - 1]) }
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(5))
        op.apply(to: probe).subscribe(subscriber)
        _ = probe.subscribers[0].receive(1)
        _ = probe.subscribers[0].receive(2)
        probe.subscribers[0].receive(completion: .failure(.oops))
        #expect(subscriptions[1].requests == [.max(3)])
    }

    @Test(arguments: Operator.allCases)
    func aFailedSubscriptionIsReleasedNotCancelled(_ op: Operator) {
        let probe = Probe()
        let cancels = Log<Void>()
        var first: CancelCountingSubscription? = CancelCountingSubscription(cancels: cancels)
        weak let released = first
        probe.onSubscribe = { subscriber, attempt in
            if attempt == 1, let subscription = first {
                first = nil
                subscriber.receive(subscription: subscription)
            } else {
                subscriber.receive(subscription: RecordingSubscription())
            }
        }
        op.apply(to: probe).subscribe(TestSubscriber<Int, TestError>())
        #expect(released != nil)
        probe.subscribers[0].receive(completion: .failure(.oops))
        #expect(cancels.items.isEmpty)
        #expect(released == nil)
        #expect(probe.subscribers.count == 2)
    }

    @Test(arguments: Operator.allCases)
    func aSecondUpstreamSubscriptionIsCancelled(_ op: Operator) {
        let probe = Probe()
        let second = RecordingSubscription()
        probe.onSubscribe = { subscriber, _ in
            subscriber.receive(subscription: RecordingSubscription())
            subscriber.receive(subscription: second)
        }
        let subscriber = TestSubscriber<Int, TestError>()
        op.apply(to: probe).subscribe(subscriber)
        #expect(second.cancels == 1)
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test(arguments: Operator.allCases)
    func twentyThousandSynchronousFailuresDoNotGrowTheStack(_ op: Operator) {
        var attempts = 0
        let subscriber = TestSubscriber<Int, TestError>()
        op.apply(
            to: Deferred { () -> AnyPublisher<Int, TestError> in
                attempts += 1
                return attempts <= 20_000
                    ? Fail(error: .oops).eraseToAnyPublisher()
                    : Just(attempts).setFailureType(to: TestError.self).eraseToAnyPublisher()
            },
            retries: 20_000
        )
        .subscribe(subscriber)
        #expect(attempts == 20_001)
        #expect(subscriber.values == [20_001])
        #expect(subscriber.completion == .finished)
    }

    @Test(arguments: Operator.allCases)
    func nothingArrivesAfterCancelAndAValueAfterItIsIgnored(_ op: Operator) {
        let probe = Probe()
        let subscription = RecordingSubscription()
        probe.onSubscribe = { subscriber, _ in subscriber.receive(subscription: subscription) }
        let subscriber = TestSubscriber<Int, TestError>()
        op.apply(to: probe).subscribe(subscriber)
        subscriber.cancel()
        #expect(subscription.cancels == 1)
        #expect(probe.subscribers[0].receive(1) == .none)
        probe.subscribers[0].receive(completion: .failure(.oops))
        #expect(subscriber.events.count == 1)
        #expect(probe.subscribers.count == 1)
    }

    @Test(arguments: Operator.allCases)
    func theDownstreamAndTheUpstreamPublisherAreLetGoAfterCompletionAndAfterCancel(_ op: Operator) {
        for ending in ["completion", "cancel"] {
            weak var weakSubscription: AnyObject?
            weak var weakCapture: Tracked?
            weak var weakDownstream: Recorder?
            let probe = Probe()
            probe.onSubscribe = { subscriber, _ in subscriber.receive(subscription: RecordingSubscription()) }
            do {
                let captured = Tracked()
                weakCapture = captured
                let downstream = Recorder()
                weakDownstream = downstream
                op.apply(
                    to: Deferred { () -> Probe in
                        _ = captured; return probe
                    }
                ).subscribe(downstream)
                weakSubscription = probe.rawSubscribers.first
                if ending == "completion" {
                    probe.subscribers[0].receive(completion: .finished)
                } else {
                    downstream.subscription?.cancel()
                }
                // The upstream has ended or been cancelled: it lets go of its subscriber.
                probe.subscribers.removeAll()
                probe.rawSubscribers.removeAll()
            }
            #expect(weakSubscription == nil, "\(ending)")
            #expect(weakCapture == nil, "\(ending)")
            #expect(weakDownstream == nil, "\(ending)")
        }
    }

    @Test func requestNoneIsAccepted() async {
        await #expect(processExitsWith: .success) {
            for op in ResubscribingSubscriptionTests.Operator.allCases {
                let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
                op.apply(to: PassthroughSubject<Int, TestError>()).subscribe(subscriber)
                subscriber.request(.none)
            }
        }
    }

    @Test func aValueWithoutDemandTrapsInRetry() async {
        await #expect(processExitsWith: .failure) {
            ResubscribingSubscriptionTests.sendValueWithoutDemand(through: .retry)
        }
    }

    @Test func aValueWithoutDemandTrapsInSelectiveRetry() async {
        await #expect(processExitsWith: .failure) {
            ResubscribingSubscriptionTests.sendValueWithoutDemand(through: .selectiveRetry)
        }
    }

    @Test func aValueWithoutDemandTrapsInRetryOn() async {
        await #expect(processExitsWith: .failure) {
            ResubscribingSubscriptionTests.sendValueWithoutDemand(through: .retryOn)
        }
    }

    /// Sends a value that nobody asked for.
    static func sendValueWithoutDemand(through op: Operator) {
        let probe = Probe()
        probe.onSubscribe = { subscriber, _ in
            subscriber.receive(subscription: RecordingSubscription())
            _ = subscriber.receive(1)
        }
        op.apply(to: probe).subscribe(TestSubscriber<Int, TestError>(initialDemand: nil))
    }
}

/// An upstream driven by hand: it keeps every subscriber it is given (once as the raw object)
/// and runs `onSubscribe` with the attempt's number (from 1).
final class Probe: Publisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = TestError

    var subscribers: [AnySubscriber<Int, TestError>] = []
    var rawSubscribers: [AnyObject] = []
    var onSubscribe: (AnySubscriber<Int, TestError>, Int) -> Void = { _, _ in }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
        let erased = AnySubscriber(subscriber)
        subscribers.append(erased)
        rawSubscribers.append(subscriber as AnyObject)
        onSubscribe(erased, subscribers.count)
    }
}

/// A downstream that keeps its subscription only where a test puts it, to watch lifetimes.
final class Recorder: Subscriber, @unchecked Sendable {
    var subscription: (any Subscription)?
    var values: [Int] = []
    var completion: Subscribers.Completion<TestError>?

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        values.append(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<TestError>) {
        self.completion = completion
    }
}

/// A subscription that counts its cancels in a log the test keeps.
final class CancelCountingSubscription: Subscription, @unchecked Sendable {
    let cancels: Log<Void>
    init(cancels: Log<Void>) { self.cancels = cancels }
    func request(_ demand: Subscribers.Demand) {}
    func cancel() { cancels.append(()) }
}
