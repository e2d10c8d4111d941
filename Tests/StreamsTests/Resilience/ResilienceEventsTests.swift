import Streams
import StreamsResilience
import StreamsTesting
import Testing

@Suite("ResilienceEvents")
struct ResilienceEventsTests {
    typealias Guarded = TestSubscriber<Int, ResilienceError<BackendError>>

    /// What the observer was told, in order, as text.
    final class Recorder: @unchecked Sendable {
        private let recorded = Locked<[String]>([])
        var events: ResilienceEvents {
            ResilienceEvents { [self] event in
                guard let text = Self.describe(event) else { return }
                recorded.withLock { $0.append(text) }
            }
        }
        var items: [String] { recorded.withLock { $0 } }

        /// The event as text; nil for the bookkeeping events (outcomes recorded, permits).
        static func describe(_ event: ResilienceEvent) -> String? {
            switch event {
            case .circuitStateChanged(let state): "circuit \(state)"
            case .circuitRejected(let refusal): "circuit refused, \(refusal.retryAfter.map { "\($0)" } ?? "no hint")"
            case .circuitWouldOpen(let calls, let failures, _): "circuit would open, \(failures) of \(calls)"
            case .attemptTimedOut(let timeout): "attempt timed out after \(timeout)"
            case .deadlineExceeded(let deadline): "deadline \(deadline) passed"
            case .limiterRejected(let refusal): "limiter refused, \(refusal.reason)"
            case .retryScheduled(let retry, let delay, _): "retry \(retry) in \(delay)"
            case .attemptStarted(let attempt): "attempt \(attempt) started"
            case .attemptEnded(let attempt, let duration, let error):
                "attempt \(attempt) \(error == nil ? "finished" : "failed") after \(duration.map { "\($0)" } ?? "?")"
            case .retryGaveUp(let reason, let attempts, _): "gave up after \(attempts): \(reason)"
            case .hedgeStarted(let attempt, let failure): "hedge \(attempt)\(failure == nil ? "" : " after a failure")"
            case .fallbackUsed: "fallback used"
            case .circuitCallRecorded, .limiterUsage: nil
            }
        }
    }

    @Test func oneObserverSeesTheWholeTimeline() {
        let scheduler = TestScheduler()
        let recorder = Recorder()
        let events = recorder.events
        let breaker = CircuitBreaker(.init(failureRatio: 1, window: .count(10), minimumThroughput: 2), events: events)
        let backend = ScriptedBackend([.hang, .hang, .value], scheduler: scheduler)
        let subscriber = Guarded()
        backend.publisher
            .attemptTimeout(.seconds(1), scheduler: scheduler, events: events)
            .circuitBreaker(breaker, scheduler: scheduler)
            .retry(5, backoff: .constant(.seconds(1)), scheduler: scheduler, onRetry: events.onRetry())
            .deadline(.seconds(30), scheduler: scheduler, events: events)
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(60))
        #expect(
            recorder.items == [
                "attempt timed out after 1.0 seconds", "retry 1 in 1.0 seconds",
                "attempt timed out after 1.0 seconds", "circuit open", "retry 2 in 1.0 seconds",
                "circuit refused, 4.0 seconds", "retry 3 in 4.0 seconds", "circuit halfOpen", "circuit closed",
            ])
        #expect(subscriber.values == [1])
        #expect(backend.callTimes == [.seconds(0), .seconds(2), .seconds(8)])
    }

    @Test func refusalsAndDeadlinesAreTold() {
        let scheduler = TestScheduler()
        let recorder = Recorder()
        let events = recorder.events
        let breaker = CircuitBreaker(events: events)
        breaker.isolate()
        ScriptedBackend([.value], scheduler: scheduler).publisher.circuitBreaker(breaker, scheduler: scheduler).subscribe(
            Guarded())
        let limiter = ConcurrencyLimiter(maxConcurrent: 1, events: events)
        let hanging = ScriptedBackend([.hang], scheduler: scheduler)
        hanging.publisher.concurrencyLimiter(limiter).subscribe(Guarded())
        hanging.publisher.concurrencyLimiter(limiter).subscribe(Guarded())
        let rate = RateLimiter(permits: 1, per: .seconds(1), events: events)
        hanging.publisher.rateLimiter(rate, scheduler: scheduler).subscribe(Guarded())
        hanging.publisher.rateLimiter(rate, scheduler: scheduler).subscribe(Guarded())
        let bounded = Guarded()
        hanging.publisher.deadline(.seconds(2), scheduler: scheduler, events: events).subscribe(bounded)
        scheduler.advance(by: .seconds(2))
        #expect(
            recorder.items == [
                "circuit isolated", "circuit refused, no hint", "limiter refused, queueFull", "limiter refused, rateLimited",
                "deadline 2.0 seconds passed",
            ])
    }

    @Test func theRetryTellsEachAttemptRetryAndItsGiveUp() {
        let scheduler = TestScheduler()
        let recorder = Recorder()
        let backend = ScriptedBackend(
            [.hang, .failure(.outage), .failure(.badRequest)], scheduler: scheduler)
        let subscriber = Guarded()
        backend.publisher
            .attemptTimeout(.seconds(2), scheduler: scheduler)
            .retry(5, backoff: .constant(.seconds(1)), scheduler: scheduler, events: recorder.events)
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(60))
        #expect(
            recorder.items == [
                "attempt 1 started", "attempt 1 failed after 2.0 seconds", "retry 1 in 1.0 seconds",
                "attempt 2 started", "attempt 2 failed after 0.0 seconds", "retry 2 in 1.0 seconds",
                "attempt 3 started", "attempt 3 failed after 0.0 seconds", "gave up after 3: notRetryable",
            ])
        #expect(subscriber.failure == .upstream(.badRequest))
    }

    @Test func aFinishedAttemptIsToldWithItsDuration() {
        let scheduler = TestScheduler()
        let recorder = Recorder()
        let backend = ScriptedBackend([.valueAfter(.seconds(3))], scheduler: scheduler)
        backend.publisher
            .retry(1, backoff: .immediate, scheduler: scheduler, events: recorder.events)
            .subscribe(TestSubscriber<Int, BackendError>())
        scheduler.advance(by: .seconds(10))
        #expect(recorder.items == ["attempt 1 started", "attempt 1 finished after 3.0 seconds"])
    }

    @Test func hedgingTellsEachExtraAttempt() {
        let scheduler = TestScheduler()
        let recorder = Recorder()
        let backend = ScriptedBackend([.failure(.outage), .hang, .value], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, BackendError>()
        backend.publisher
            .hedge(maxAttempts: 3, delay: .seconds(1), scheduler: scheduler, events: recorder.events)
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(recorder.items == ["hedge 2 after a failure", "hedge 3"])
        #expect(backend.callTimes == [.seconds(0), .seconds(0), .seconds(1)])
        #expect(subscriber.values == [1])
    }
}
