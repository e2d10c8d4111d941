import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// The report of one call, beside its value or its error, on both faces.
@MainActor
@Suite("ResilienceReport")
struct ResilienceReportTests {
    @Test func executeReportingTellsTheAttemptsTheWaitsAndTheBudgetLeft() async throws {
        let clock = TestClock()
        let policy = ResiliencePolicy(
            retry: .init(maxRetries: 2, backoff: .constant(.seconds(1)), budget: .init(capacity: 100, retryCost: 5)))
        let pipeline = ResiliencePipeline(policy)
        let backend = AsyncBackend([.failure(.outage), .value], clock: clock)
        let task = Task { await pipeline.executeReporting(clock: clock, backend.call) }
        await eventually { clock.scheduler.scheduledCount == 1 }
        await clock.advance(by: .seconds(1))
        let outcome = await task.value
        #expect(try outcome.get() == 1)
        let report = outcome.report
        #expect(report.attempts.map(\.number) == [1, 2])
        #expect(report.attempts.map { $0.error as? BackendError } == [.outage, nil])
        #expect(report.attempts.map(\.duration) == [.zero, .zero])
        #expect(report.waits.map(\.description) == ["waited 1.0 seconds: backoff before retry 1"])
        #expect(report.refusedBy == nil)
        #expect(report.budgetLeft == 96)
    }

    @Test func executeReportingNamesTheStageThatRefused() async {
        let clock = TestClock()
        let pipeline = ResiliencePipeline(ResiliencePolicy(circuitBreaker: .init()))
        pipeline.circuitBreaker?.isolate()
        let backend = AsyncBackend([.value], clock: clock)
        let outcome = await pipeline.executeReporting(clock: clock, backend.call)
        #expect(throws: CircuitOpenError.self) { try outcome.get() }
        #expect(outcome.report.refusedBy == .circuitBreaker)
        #expect(outcome.report.attempts.isEmpty)
        #expect(backend.callCount == 0)
    }

    @Test func resilientHandsEachSubscriptionItsReport() {
        let scheduler = TestScheduler()
        let reports = Locked<[ResilienceReport]>([])
        let policy = ResiliencePolicy(retry: .init(maxRetries: 1, backoff: .constant(.seconds(1))), attemptTimeout: .seconds(2))
        let backend = ScriptedBackend([.hang, .hang], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, ResilienceError<BackendError>>()
        backend.publisher
            .resilient(
                ResiliencePipeline(policy), scheduler: scheduler, onReport: { report in reports.withLock { $0.append(report) } }
            )
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        let told = reports.withLock { $0 }
        #expect(told.count == 1)
        #expect(told.first?.attempts.map(\.number) == [1, 2])
        #expect(told.first?.attempts.map(\.duration) == [.seconds(2), .seconds(2)])
        #expect(told.first?.refusedBy == .attemptTimeout)
        #expect(told.first?.retryGaveUp == .exhausted)
    }

    @Test func aPublishersReportHasTheRateLimitersWait() {
        let scheduler = TestScheduler()
        let reports = Locked<[ResilienceReport]>([])
        let policy = ResiliencePolicy(rateLimit: .init(permits: 1, per: .seconds(1), maxWait: .seconds(2)))
        let pipeline = ResiliencePipeline(policy)
        let backend = ScriptedBackend([.value, .value], scheduler: scheduler)
        for _ in 0..<2 {
            backend.publisher
                .resilient(pipeline, scheduler: scheduler, onReport: { report in reports.withLock { $0.append(report) } })
                .subscribe(TestSubscriber<Int, ResilienceError<BackendError>>())
        }
        scheduler.advance(by: .seconds(5))
        #expect(reports.withLock { $0 }.map { $0.waits.map(\.description) } == [[], ["waited 1.0 seconds: rate limiter"]])
    }
}
