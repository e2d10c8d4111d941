import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// A publisher and `async` calls guarded by one pipeline share its breaker, budget and limiters.
@MainActor
@Suite("One pipeline for publishers and async calls")
struct SharedStateTests {
    let clock = TestClock()
    var scheduler: TestScheduler { clock.scheduler }

    @Test func anOutageSeenByPublishersOpensTheCircuitForAsyncCallsAndBack() async throws {
        let policy = ResiliencePolicy(
            circuitBreaker: .init(failureRatio: 0.5, window: .count(4), minimumThroughput: 2, breakDuration: .seconds(5)))
        let pipeline = ResiliencePipeline(policy)
        let scripted = ScriptedBackend([.failure(.outage)], scheduler: scheduler)
        for _ in 0..<2 {
            let subscriber = TestSubscriber<Int, ResilienceError<BackendError>>()
            scripted.publisher.resilient(pipeline, scheduler: scheduler).subscribe(subscriber)
            #expect(subscriber.failure == .upstream(.outage))
        }
        #expect(pipeline.circuitBreaker?.currentState == .open)

        let backend = AsyncBackend([.value], clock: clock)
        await clock.advance(by: .seconds(2))
        do {
            _ = try await pipeline.execute(clock: clock, backend.call)
            Issue.record("The call went through an open circuit")
        } catch let refusal as CircuitOpenError {
            #expect(refusal.retryAfter == .seconds(3))  // the break's time left, on the one time line
        }
        #expect(backend.callCount == 0)

        await clock.advance(by: .seconds(3))
        #expect(try await pipeline.execute(clock: clock, backend.call) == 1)  // the async probe closes it
        #expect(pipeline.circuitBreaker?.currentState == .closed)
        let subscriber = TestSubscriber<Int, ResilienceError<BackendError>>()
        ScriptedBackend([.value], scheduler: scheduler).publisher.resilient(pipeline, scheduler: scheduler)
            .subscribe(subscriber)
        #expect(subscriber.values == [1])
    }

    @Test func retriesOfBothFacesDrawFromOneBudget() async {
        let policy = ResiliencePolicy(
            retry: .init(maxRetries: 5, backoff: .immediate, budget: .init(capacity: 10, retryCost: 5, successRefill: 0)))
        let pipeline = ResiliencePipeline(policy)
        let subscriber = TestSubscriber<Int, ResilienceError<BackendError>>()
        ScriptedBackend([.failure(.outage), .value], scheduler: scheduler).publisher
            .resilient(pipeline, scheduler: scheduler).subscribe(subscriber)
        await scheduler.advance()
        #expect(subscriber.values == [1])
        #expect(pipeline.retryBudget?.available == 5)

        let backend = AsyncBackend([.failure(.outage)], clock: clock)
        let clock = clock
        let task = Task { try await pipeline.execute(clock: clock, backend.call) }
        do {
            _ = try await task.value
            Issue.record("The call succeeded")
        } catch {
            #expect(error as? BackendError == .outage)
        }
        #expect(backend.callCount == 2)  // one retry paid for, then the budget was empty
        #expect(pipeline.retryBudget?.available == 0)
    }
}
