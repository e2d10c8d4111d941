import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// The value path of the operators whose values take no lock once flowing (a breaker's call
/// after its outcome, a limiter's admitted call): values pass in order, also from inside a
/// delivery; nothing passes after a cancel; the downstream is let go at the cancel or the
/// completion, even while the upstream still holds the subscription.
@Suite("Resilience operators' lock-free value path")
struct ResilienceValuePathTests {
    typealias Guarded = AnyPublisher<Int, ResilienceError<BackendError>>

    struct Operator: CustomTestStringConvertible, Sendable {
        let name: String
        let apply: @Sendable (AnyPublisher<Int, BackendError>, TestScheduler) -> Guarded
        var testDescription: String { name }
    }

    static let operators = [
        Operator(name: "circuitBreaker") { upstream, scheduler in
            upstream.circuitBreaker(CircuitBreaker(), scheduler: scheduler).eraseToAnyPublisher()
        },
        Operator(name: "concurrencyLimiter") { upstream, _ in
            upstream.concurrencyLimiter(ConcurrencyLimiter(maxConcurrent: 1)).eraseToAnyPublisher()
        },
        Operator(name: "rateLimiter") { upstream, scheduler in
            upstream.rateLimiter(RateLimiter(permits: 10, per: .seconds(1)), scheduler: scheduler)
                .eraseToAnyPublisher()
        },
    ]

    @Test(arguments: operators)
    func valuesSentFromInsideADeliveryPassInOrder(_ op: Operator) {
        let subject = PassthroughSubject<Int, BackendError>()
        var received: [Int] = []
        let cancellable = op.apply(subject.eraseToAnyPublisher(), TestScheduler()).sink(
            receiveCompletion: { _ in },
            receiveValue: { value in
                received.append(value)
                if value < 4 { subject.send(value + 1) }
            })
        subject.send(1)
        #expect(received == [1, 2, 3, 4])
        cancellable.cancel()
        subject.send(5)
        #expect(received == [1, 2, 3, 4])
    }

    @Test(arguments: operators)
    func aCancelLetsTheDownstreamGoWhileTheUpstreamHoldsTheSubscription(_ op: Operator) {
        let upstream = ManualUpstream<Int, BackendError>(failure: .outage) { $0 }
        upstream.ignoresCancel = true
        weak var released: TestSubscriber<Int, ResilienceError<BackendError>>?
        do {
            let subscriber = TestSubscriber<Int, ResilienceError<BackendError>>()
            released = subscriber
            op.apply(upstream.eraseToAnyPublisher(), TestScheduler()).subscribe(subscriber)
            upstream.send(1)
            upstream.send(2)
            #expect(subscriber.values == [1, 2])
            subscriber.cancel()
        }
        #expect(upstream.subscriber != nil)
        #expect(released == nil)
        #expect(upstream.send(3) == .none)
    }

    @Test(arguments: operators)
    func theCompletionLetsTheDownstreamGo(_ op: Operator) {
        let upstream = ManualUpstream<Int, BackendError>(failure: .outage) { $0 }
        upstream.ignoresCancel = true
        weak var released: TestSubscriber<Int, ResilienceError<BackendError>>?
        do {
            let subscriber = TestSubscriber<Int, ResilienceError<BackendError>>()
            released = subscriber
            op.apply(upstream.eraseToAnyPublisher(), TestScheduler()).subscribe(subscriber)
            upstream.send(1)
            upstream.send(2)
            upstream.finish()
            #expect(subscriber.values == [1, 2])
            #expect(subscriber.completion == .finished)
        }
        #expect(released == nil)
    }
}
