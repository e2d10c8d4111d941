import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// The breaker's metrics snapshot and recorded outcomes, and the limiters' usage.
@Suite("Breaker and limiter telemetry")
struct BreakerAndLimiterTelemetryTests {
    typealias Guarded = TestSubscriber<Int, ResilienceError<BackendError>>

    /// Subscribes one call of `reply` through `breaker`, then lets `seconds` pass.
    static func call(
        _ reply: BackendReply, through breaker: CircuitBreaker, on scheduler: TestScheduler, thenWait seconds: Int = 1
    ) {
        let backend = ScriptedBackend([reply], scheduler: scheduler)
        backend.publisher.circuitBreaker(breaker, scheduler: scheduler).subscribe(Guarded())
        scheduler.advance(by: .seconds(seconds))
    }

    @Test func theMetricsCountTheWindowAndTheFailureRate() {
        let scheduler = TestScheduler()
        let breaker = CircuitBreaker(.init(failureRatio: 0.9, window: .count(10), minimumThroughput: 10))
        for reply in [BackendReply.value, .failure(.outage), .failure(.outage)] {
            Self.call(reply, through: breaker, on: scheduler)
        }
        let metrics = breaker.metrics(at: scheduler.now)
        #expect(metrics == CircuitBreakerMetrics(state: .closed, since: nil, calls: 3, failures: 2))
        #expect(abs(metrics.failureRate - 2.0 / 3.0) < 1e-9)
    }

    @Test func theMetricsSayWhenTheStateBegan() {
        let scheduler = TestScheduler()
        let breaker = CircuitBreaker(.init(failureRatio: 1, window: .count(10), minimumThroughput: 2))
        Self.call(.failure(.outage), through: breaker, on: scheduler, thenWait: 3)
        Self.call(.failure(.outage), through: breaker, on: scheduler)
        #expect(breaker.metrics(at: scheduler.now).state == .open)
        #expect(breaker.metrics(at: scheduler.now).since == .seconds(3))
        breaker.isolate()
        #expect(breaker.metrics(at: scheduler.now).since == nil)
    }

    @Test func everyRecordedOutcomeIsTold() {
        let scheduler = TestScheduler()
        let told = Locked<[String]>([])
        let events = ResilienceEvents { event in
            if case .circuitCallRecorded(let failed, let duration) = event {
                told.withLock { $0.append("\(failed ? "failed" : "succeeded") in \(duration)") }
            }
        }
        var configuration = CircuitBreaker.Configuration()
        configuration.slowCallThreshold = .seconds(2)
        let breaker = CircuitBreaker(configuration, events: events)
        Self.call(.value, through: breaker, on: scheduler)
        Self.call(.failure(.outage), through: breaker, on: scheduler)
        Self.call(.valueAfter(.seconds(3)), through: breaker, on: scheduler, thenWait: 5)
        #expect(told.withLock { $0 } == ["succeeded in 0.0 seconds", "failed in 0.0 seconds", "failed in 3.0 seconds"])
    }

    @Test func theConcurrencyLimiterTellsPermitsInUseAndQueued() {
        let scheduler = TestScheduler()
        let told = Locked<[String]>([])
        let events = ResilienceEvents { event in
            if case .limiterUsage(let usage) = event { told.withLock { $0.append("\(usage)") } }
        }
        let limiter = ConcurrencyLimiter(maxConcurrent: 1, maxQueued: 1, events: events)
        let backend = ScriptedBackend([.valueAfter(.seconds(1)), .valueAfter(.seconds(1))], scheduler: scheduler)
        backend.publisher.concurrencyLimiter(limiter).subscribe(Guarded())
        backend.publisher.concurrencyLimiter(limiter).subscribe(Guarded())
        scheduler.advance(by: .seconds(5))
        #expect(
            told.withLock { $0 } == [
                "concurrency admitted: 1 in use, 0 queued", "concurrency queued: 1 in use, 1 queued",
                "concurrency released: 1 in use, 0 queued", "concurrency released: 0 in use, 0 queued",
            ])
    }

    @Test func theRateLimiterTellsTokensSpentAndCallsWaiting() {
        let scheduler = TestScheduler()
        let told = Locked<[String]>([])
        let events = ResilienceEvents { event in
            if case .limiterUsage(let usage) = event { told.withLock { $0.append("\(usage)") } }
        }
        let limiter = RateLimiter(permits: 2, per: .seconds(1), maxWait: .seconds(1), events: events)
        let backend = ScriptedBackend([.value, .value, .value], scheduler: scheduler)
        for _ in 0..<3 { backend.publisher.rateLimiter(limiter, scheduler: scheduler).subscribe(Guarded()) }
        scheduler.advance(by: .seconds(5))
        #expect(
            told.withLock { $0 } == [
                "rate admitted: 1 in use, 0 queued", "rate admitted: 2 in use, 0 queued",
                "rate delayed 0.5 seconds: 2 in use, 1 queued",
            ])
    }
}
