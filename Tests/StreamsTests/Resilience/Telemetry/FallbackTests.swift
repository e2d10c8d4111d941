import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// The fallback, outermost stage of a pipeline, with its event.
@MainActor
@Suite("Fallback stage")
struct FallbackTests {
    @Test func aPublisherThatFailsDeliversTheFallbackAfterEveryOtherStage() {
        let scheduler = TestScheduler()
        let told = Locked<[String]>([])
        let events = ResilienceEvents { event in told.withLock { $0.append("\(event)".prefix { $0 != "(" }.description) } }
        let pipeline = ResiliencePipeline(ResiliencePolicy(retry: .init(maxRetries: 1, backoff: .immediate)), events: events)
        let backend = ScriptedBackend([.failure(.outage), .failure(.outage)], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, ResilienceError<BackendError>>()
        backend.publisher.resilient(pipeline, scheduler: scheduler) { _ in 42 }.subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [42])
        guard case .finished? = subscriber.completion else {
            Issue.record("expected the stream to finish")
            return
        }
        #expect(backend.callCount == 2)
        #expect(told.withLock { $0 }.last == "fallbackUsed")
    }

    @Test func aFallbackThatReturnsNilLetsTheFailureThrough() {
        let scheduler = TestScheduler()
        let pipeline = ResiliencePipeline(ResiliencePolicy(circuitBreaker: .init()))
        pipeline.circuitBreaker?.isolate()
        let backend = ScriptedBackend([.value], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, ResilienceError<BackendError>>()
        backend.publisher.resilient(pipeline, scheduler: scheduler) { _ in nil }.subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values.isEmpty)
        guard case .failure(.circuitOpen)? = subscriber.completion else {
            Issue.record("expected the breaker's refusal")
            return
        }
    }

    @Test func executeFallsBackWhenTheCallFails() async throws {
        let clock = TestClock()
        let pipeline = ResiliencePipeline(ResiliencePolicy(circuitBreaker: .init()))
        pipeline.circuitBreaker?.isolate()
        let backend = AsyncBackend([.value], clock: clock)
        let value = try await pipeline.execute(clock: clock, backend.call) { error in
            error is CircuitOpenError ? 7 : 0
        }
        #expect(value == 7)
        #expect(backend.callCount == 0)
    }
}
