import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// Every event tells whom it is about: the operation (the pipeline's name, a registry's key),
/// the attempt and the request's method and origin.
@MainActor
@Suite("ResilienceEventContext")
struct EventContextTests {
    typealias Guarded = TestSubscriber<Int, ResilienceError<BackendError>>

    /// Each event with its context, as text.
    final class ContextLog: Sendable {
        private let recorded = Locked<[String]>([])
        var events: ResilienceEvents {
            ResilienceEvents { [recorded] event, context in
                recorded.withLock { $0.append("\(Self.name(of: event)) [\(context)]") }
            }
        }
        var items: [String] { recorded.withLock { $0 } }

        static func name(of event: ResilienceEvent) -> String {
            "\(event)".prefix { $0 != "(" }.description
        }
    }

    static let post = ResilienceRequestIdentity(method: "post", origin: "https://pay.example.com:443")

    @Test func aRequestIdentityKeepsTheMethodAndOriginOnly() {
        let identity = ResilienceRequestIdentity(
            method: "post", origin: "https://user:secret@pay.example.com:443/charges?card=4242")
        #expect(identity.method == "POST")
        #expect(identity.origin == "https://pay.example.com:443")
        #expect("\(identity)" == "POST https://pay.example.com:443")
    }

    @Test func thePublisherFaceTellsTheKeyTheAttemptAndTheRequest() {
        let scheduler = TestScheduler()
        let log = ContextLog()
        let policy = ResiliencePolicy(
            retry: .init(maxRetries: 1, backoff: .constant(.seconds(1))), attemptTimeout: .seconds(2))
        let registry = ResilienceRegistry(policy: policy, events: { [log] _ in log.events })
        let backend = ScriptedBackend([.hang, .value], scheduler: scheduler)
        let subscriber = Guarded()
        backend.publisher
            .resilient(registry.pipeline(for: "payments"), scheduler: scheduler, request: Self.post)
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(subscriber.values == [1])
        let request = "POST https://pay.example.com:443"
        #expect(
            log.items == [
                "attemptStarted [payments attempt 1 \(request)]",
                "attemptTimedOut [payments attempt 1 \(request)]",
                "attemptEnded [payments attempt 1 \(request)]",
                "retryScheduled [payments attempt 1 \(request)]",
                "attemptStarted [payments attempt 2 \(request)]",
                "attemptEnded [payments attempt 2 \(request)]",
            ])
    }

    @Test func theAsyncFaceTellsTheBreakerAndLimiterEventsOfTheCall() async throws {
        let clock = TestClock()
        let log = ContextLog()
        let policy = ResiliencePolicy(
            concurrencyLimit: .init(maxConcurrent: 2), retry: .init(maxRetries: 1, backoff: .immediate),
            circuitBreaker: .init())
        let pipeline = ResiliencePipeline(policy, name: "payments", events: log.events)
        let backend = AsyncBackend([.failure(.outage), .value], clock: clock)
        let value = try await pipeline.execute(clock: clock, request: Self.post, backend.call)
        #expect(value == 1)
        let request = "POST https://pay.example.com:443"
        #expect(
            log.items == [
                "limiterUsage [payments \(request)]",
                "attemptStarted [payments attempt 1 \(request)]",
                "circuitCallRecorded [payments attempt 1 \(request)]",
                "attemptEnded [payments attempt 1 \(request)]",
                "retryScheduled [payments attempt 1 \(request)]",
                "attemptStarted [payments attempt 2 \(request)]",
                "circuitCallRecorded [payments attempt 2 \(request)]",
                "attemptEnded [payments attempt 2 \(request)]",
                "limiterUsage [payments]",
            ])
    }

    @Test func anObserverOfEventsAloneStillHearsEveryEvent() async throws {
        let clock = TestClock()
        let heard = Locked<[String]>([])
        let events = ResilienceEvents { event in heard.withLock { $0.append(ContextLog.name(of: event)) } }
        let pipeline = ResiliencePipeline(ResiliencePolicy(retry: .init(maxRetries: 1, backoff: .immediate)), events: events)
        let backend = AsyncBackend([.value], clock: clock)
        _ = try await pipeline.execute(clock: clock, backend.call)
        #expect(heard.withLock { $0 } == ["attemptStarted", "attemptEnded"])
    }

    @Test func onThePublisherFaceTheSharedBreakerTellsTheCallToo() {
        let scheduler = TestScheduler()
        let log = ContextLog()
        let pipeline = ResiliencePipeline(ResiliencePolicy(circuitBreaker: .init()), name: "payments", events: log.events)
        let backend = ScriptedBackend([.value], scheduler: scheduler)
        backend.publisher.resilient(pipeline, scheduler: scheduler, request: Self.post)
            .subscribe(TestSubscriber<Int, ResilienceError<BackendError>>())
        scheduler.advance(by: .seconds(1))
        #expect(log.items == ["circuitCallRecorded [payments POST https://pay.example.com:443]"])
    }
}
