import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// The shapes users ask for, on virtual time: window rate limiters for "N per minute" quotas,
/// weighted permits for batch calls, a slow-call rate apart from the failure rate, and a
/// maximum wait in half-open.
@Suite("Limiter and breaker shapes")
struct LimiterAndBreakerShapesTests {
    typealias Guarded = TestSubscriber<Int, ResilienceError<BackendError>>

    /// One call through `limiter` at the scheduler's now; its subscriber.
    @discardableResult
    func call(_ limiter: RateLimiter, permits: Int = 1, _ scheduler: TestScheduler) -> Guarded {
        let subscriber = Guarded()
        Just(1).setFailureType(to: BackendError.self).rateLimiter(limiter, permits: permits, scheduler: scheduler)
            .subscribe(subscriber)
        return subscriber
    }

    static func refusal(after wait: Duration) -> Subscribers.Completion<ResilienceError<BackendError>> {
        .failure(.limiterRejected(LimiterRejectedError(reason: .rateLimited, retryAfter: wait)))
    }

    @Test func aFixedWindowAdmitsItsPermitsPerWindowAndTellsTheWaitToTheNext() {
        let scheduler = TestScheduler()
        let limiter = RateLimiter(permits: 3, per: .seconds(60), algorithm: .fixedWindow)
        scheduler.advance(by: .seconds(10))  // the first window starts with the first call
        #expect((0..<3).map { _ in call(limiter, scheduler).values } == [[1], [1], [1]])
        #expect(call(limiter, scheduler).completion == Self.refusal(after: .seconds(60)))
        scheduler.advance(by: .seconds(59))
        #expect(call(limiter, scheduler).completion == Self.refusal(after: .seconds(1)))
        #expect(limiter.available(at: scheduler.now) == 0)
        scheduler.advance(by: .seconds(1))
        #expect(limiter.available(at: scheduler.now) == 3)
        #expect(call(limiter, scheduler).values == [1])
    }

    @Test func aSlidingWindowNeverAdmitsMoreThanItsPermitsInAnySpan() {
        let scheduler = TestScheduler()
        let limiter = RateLimiter(permits: 3, per: .seconds(60), algorithm: .slidingWindow)
        for _ in 0..<3 {
            #expect(call(limiter, scheduler).values == [1])
            scheduler.advance(by: .seconds(20))
        }
        // At 60 s the call of 0 s has left the span: one permit is free.
        #expect(call(limiter, scheduler).values == [1])
        scheduler.advance(by: .seconds(1))
        // At 61 s: calls at 20, 40 and 60 s; the next permit frees at 80 s.
        #expect(call(limiter, scheduler).completion == Self.refusal(after: .seconds(19)))
    }

    @Test func aSlidingWindowWaitsWithinMaxWait() {
        let scheduler = TestScheduler()
        let limiter = RateLimiter(permits: 2, per: .seconds(10), maxWait: .seconds(10), algorithm: .slidingWindow)
        call(limiter, scheduler)
        call(limiter, scheduler)
        let waiting = call(limiter, scheduler)
        #expect(waiting.values == [])
        scheduler.advance(by: .seconds(9))
        #expect(waiting.values == [])
        scheduler.advance(by: .seconds(1))
        #expect(waiting.values == [1])
        // The reservation counts: the span from 10 s holds it.
        #expect(call(limiter, scheduler).values == [1])
        #expect(limiter.available(at: scheduler.now) == 0)
    }

    @Test func aBatchCallTakesItsPermitsAndACancelGivesThemAllBack() {
        let scheduler = TestScheduler()
        let limiter = RateLimiter(permits: 10, per: .seconds(10), maxWait: .seconds(2))
        #expect(call(limiter, permits: 6, scheduler).values == [1])
        #expect(limiter.available(at: scheduler.now) == 4)
        // Five more need one more token, a second away.
        let waiting = call(limiter, permits: 5, scheduler)
        #expect(waiting.values == [])
        waiting.cancel()
        #expect(limiter.available(at: scheduler.now) == 4)
        #expect(call(limiter, permits: 5, scheduler).values == [])
        scheduler.advance(by: .seconds(1))
        #expect(limiter.available(at: scheduler.now) == 0)
    }

    @Test func aBatchCallWaitsForAWindowWithRoomForAllItsPermits() {
        let scheduler = TestScheduler()
        let limiter = RateLimiter(permits: 10, per: .seconds(60), maxWait: .seconds(60), algorithm: .fixedWindow)
        #expect(call(limiter, permits: 8, scheduler).values == [1])
        let batch = call(limiter, permits: 3, scheduler)
        scheduler.advance(by: .seconds(59))
        #expect(batch.values == [])
        #expect(call(limiter, permits: 2, scheduler).values == [1])  // still room in this window
        scheduler.advance(by: .seconds(1))
        #expect(batch.values == [1])
        #expect(limiter.available(at: scheduler.now) == 7)
    }

    @Test func thePolicyMakesTheLimiterOfItsAlgorithm() {
        var policy = ResiliencePolicy()
        policy.rateLimit = .init(permits: 100, per: .seconds(60), algorithm: .slidingWindow)
        #expect(ResiliencePipeline(policy).rateLimiter?.algorithm == .slidingWindow)
        #expect(ResiliencePolicy.RateLimit(permits: 1, per: .seconds(1)).algorithm == .tokenBucket)
    }

    // MARK: The breaker

    @Test func withItsOwnRatioASlowCallIsNotAFailureAndTheSlowShareOpensTheCircuit() {
        let scheduler = TestScheduler()
        let configuration = CircuitBreaker.Configuration(
            failureRatio: 0.25, window: .count(4), minimumThroughput: 4, slowCallThreshold: .seconds(2),
            slowCallRatio: 0.5)
        let breaker = CircuitBreaker(configuration)
        let slow = BackendReply.valueAfter(.seconds(3))
        let backend = ScriptedBackend([slow, .value, .value, .value, slow, slow], scheduler: scheduler)
        func callOnce() {
            backend.publisher.circuitBreaker(breaker, scheduler: scheduler).subscribe(Guarded())
            scheduler.advance(by: .seconds(5))
        }
        for _ in 0..<4 { callOnce() }
        // One slow call of four: below the slow-call ratio; as a failure it would have reached
        // the failure ratio.
        #expect(breaker.currentState == .closed)
        callOnce()
        #expect(breaker.currentState == .closed)
        let metrics = breaker.metrics(at: scheduler.now)
        #expect(metrics.slowCalls == 1 && metrics.failures == 0 && metrics.calls == 4)
        #expect(metrics.slowCallRate == 0.25)
        callOnce()
        // The window (the last four calls) now holds two slow calls of four.
        #expect(breaker.currentState == .open)
    }

    @Test func withoutARatioASlowCallStillCountsAsAFailure() {
        let scheduler = TestScheduler()
        let breaker = CircuitBreaker(
            .init(failureRatio: 0.5, window: .count(4), minimumThroughput: 2, slowCallThreshold: .seconds(2)))
        let backend = ScriptedBackend([.value, .valueAfter(.seconds(3))], scheduler: scheduler)
        for _ in 0..<2 {
            backend.publisher.circuitBreaker(breaker, scheduler: scheduler).subscribe(Guarded())
            scheduler.advance(by: .seconds(5))
        }
        #expect(breaker.currentState == .open)
    }

    @Test func aProbeThatOutlastsTheMaximumHalfOpenWaitOpensTheCircuitAgain() {
        let scheduler = TestScheduler()
        let breaker = CircuitBreaker(
            .init(
                failureRatio: 1, window: .count(1), minimumThroughput: 1, breakDuration: .seconds(5),
                maxHalfOpenWait: .seconds(10)))
        let states = Locked<[CircuitState]>([])
        let watching = breaker.statePublisher.sink { state in states.withLock { $0.append(state) } }
        let backend = ScriptedBackend([.failure(.outage), .hang, .value], scheduler: scheduler)
        backend.publisher.circuitBreaker(breaker, scheduler: scheduler).subscribe(Guarded())
        scheduler.advance(by: .seconds(5))
        // The probe hangs: without a maximum wait the circuit would stay half-open for good.
        let probe = Guarded()
        backend.publisher.circuitBreaker(breaker, scheduler: scheduler).subscribe(probe)
        scheduler.advance(by: .seconds(9))
        let refusedWhileProbing = Guarded()
        backend.publisher.circuitBreaker(breaker, scheduler: scheduler).subscribe(refusedWhileProbing)
        #expect(refusedWhileProbing.completion == .failure(.circuitOpen(CircuitOpenError(state: .halfOpen, retryAfter: nil))))
        // At 17 s: the wait ran out at 15 s, the circuit opened again until 20 s.
        scheduler.advance(by: .seconds(3))
        let refused = Guarded()
        backend.publisher.circuitBreaker(breaker, scheduler: scheduler).subscribe(refused)
        #expect(refused.completion == .failure(.circuitOpen(CircuitOpenError(state: .open, retryAfter: .seconds(3)))))
        scheduler.advance(by: .seconds(3))
        let nextProbe = Guarded()
        backend.publisher.circuitBreaker(breaker, scheduler: scheduler).subscribe(nextProbe)
        #expect(nextProbe.values == [1])
        #expect(breaker.currentState == .closed)
        #expect(states.withLock { $0 } == [.closed, .open, .halfOpen, .open, .halfOpen, .closed])
        watching.cancel()
    }
}
