import Streams
import StreamsResilience
import StreamsTesting
import Testing

@Suite("ResiliencePolicy")
struct ResiliencePolicyTests {
    typealias Guarded = TestSubscriber<Int, ResilienceError<BackendError>>

    /// A pipeline for `policy` whose events land on a timeline of `scheduler`.
    static func pipeline(_ policy: ResiliencePolicy, _ timeline: ResilienceTimeline) -> ResiliencePipeline {
        ResiliencePipeline(policy, events: timeline.events)
    }

    /// Subscribes to `backend` through `pipeline` and returns the subscriber.
    @discardableResult
    func call(_ backend: ScriptedBackend, _ pipeline: ResiliencePipeline, _ scheduler: TestScheduler) -> Guarded {
        let subscriber = Guarded()
        backend.publisher.resilient(pipeline, scheduler: scheduler).subscribe(subscriber)
        return subscriber
    }

    @Test func standardHTTPHasTheStandardHandlersDefaults() {
        let policy = ResiliencePolicy.standardHTTP
        #expect(policy.concurrencyLimit == .init(maxConcurrent: 1000, maxQueued: 0))
        #expect(policy.rateLimit == nil)
        #expect(policy.totalTimeout == .seconds(30))
        #expect(policy.retry?.maxRetries == 3)
        #expect(
            policy.retry?.backoff == .exponential(initial: .seconds(2), multiplier: 2, maxDelay: .seconds(30), jitter: .equal))
        #expect(policy.retry?.budget == .init(capacity: 500, retryCost: 5, successRefill: 1))
        #expect(policy.circuitBreaker == CircuitBreaker.Configuration())
        #expect(policy.circuitBreaker?.failureRatio == 0.1)
        #expect(policy.circuitBreaker?.minimumThroughput == 100)
        #expect(policy.circuitBreaker?.window == .time(.seconds(30)))
        #expect(policy.circuitBreaker?.breakDuration == .seconds(5))
        #expect(policy.attemptTimeout == .seconds(10))
        #expect(policy.hedging == nil)
        let pipeline = ResiliencePipeline(policy)
        #expect(pipeline.concurrencyLimiter?.maxConcurrent == 1000)
        #expect(pipeline.retryBudget?.available == 500)
        #expect(pipeline.circuitBreaker?.currentState == .closed)
        #expect(pipeline.rateLimiter == nil)
    }

    @Test func anEmptyPolicyOnlyWrapsTheUpstreamsError() {
        let scheduler = TestScheduler()
        let backend = ScriptedBackend([.failure(.outage)], scheduler: scheduler)
        let subscriber = call(backend, ResiliencePipeline(ResiliencePolicy()), scheduler)
        #expect(subscriber.failure == .upstream(.outage))
        #expect(backend.callCount == 1)
    }

    @Test func eachAttemptHasItsTimeoutInsideTheRetry() {
        let scheduler = TestScheduler()
        let timeline = ResilienceTimeline(scheduler: scheduler)
        let policy = ResiliencePolicy(retry: .init(maxRetries: 2, backoff: .constant(.seconds(1))), attemptTimeout: .seconds(1))
        let backend = ScriptedBackend([.hang, .hang, .value], scheduler: scheduler)
        let subscriber = call(backend, Self.pipeline(policy, timeline), scheduler)
        scheduler.advance(by: .seconds(60))
        #expect(
            timeline.entries == [
                "1 s: attempt timed out after 1 s", "1 s: retry 1 in 1 s",
                "3 s: attempt timed out after 1 s", "3 s: retry 2 in 1 s",
            ])
        #expect(subscriber.values == [1])
        #expect(backend.callTimes == [.seconds(0), .seconds(2), .seconds(4)])
    }

    @Test func theTotalTimeoutBoundsTheRetryWhichNeverWaitsOnlyToBeCutOff() {
        let scheduler = TestScheduler()
        let timeline = ResilienceTimeline(scheduler: scheduler)
        let policy = ResiliencePolicy(
            totalTimeout: .milliseconds(3500), retry: .init(maxRetries: 5, backoff: .constant(.seconds(1))),
            attemptTimeout: .seconds(1))
        let backend = ScriptedBackend([.hang], scheduler: scheduler)
        let subscriber = call(backend, Self.pipeline(policy, timeline), scheduler)
        scheduler.advance(by: .seconds(60))
        // At 3 s the next attempt would start at 4 s, after the 3.5 s total: the retry gives up
        // with the last error instead of waiting to be cut off by the deadline.
        #expect(subscriber.failure == .attemptTimedOut(AttemptTimeoutError(timeout: .seconds(1))))
        #expect(
            timeline.entries == [
                "1 s: attempt timed out after 1 s", "1 s: retry 1 in 1 s", "3 s: attempt timed out after 1 s",
                "3 s: gave up after 2 attempts (deadline)",
            ])
        #expect(backend.callCount == 2)
    }

    @Test func theTotalTimeoutCutsALongAttempt() {
        let scheduler = TestScheduler()
        let policy = ResiliencePolicy(totalTimeout: .seconds(2), retry: .init(maxRetries: 5, backoff: .constant(.seconds(1))))
        let backend = ScriptedBackend([.hang], scheduler: scheduler)
        let subscriber = call(backend, ResiliencePipeline(policy), scheduler)
        scheduler.advance(by: .seconds(60))
        #expect(subscriber.failure == .deadlineExceeded(DeadlineExceededError(deadline: .seconds(2))))
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func theRetryGoesThroughTheBreakerAndWaitsOutAnOpenCircuit() {
        let scheduler = TestScheduler()
        let timeline = ResilienceTimeline(scheduler: scheduler)
        let policy = ResiliencePolicy(
            retry: .init(maxRetries: 3, backoff: .constant(.seconds(1))),
            circuitBreaker: .init(failureRatio: 1, window: .count(10), minimumThroughput: 2, breakDuration: .seconds(5)))
        let backend = ScriptedBackend([.failure(.outage)], scheduler: scheduler)
        let subscriber = call(backend, Self.pipeline(policy, timeline), scheduler)
        scheduler.advance(by: .seconds(60))
        #expect(
            timeline.entries == [
                "0 s: retry 1 in 1 s", "1 s: circuit open", "1 s: retry 2 in 1 s", "2 s: circuit refused (open, 4 s left)",
                "2 s: retry 3 in 4 s", "6 s: circuit halfOpen", "6 s: circuit open",
                "6 s: gave up after 4 attempts (exhausted)",
            ])
        // The retry gives up with the backend's own last error, and knocked only once meanwhile.
        #expect(subscriber.failure == .upstream(.outage))
        #expect(backend.callTimes == [.seconds(0), .seconds(1), .seconds(6)])
    }

    @Test func theLimiterIsOutsideTheRetry() {
        let scheduler = TestScheduler()
        let policy = ResiliencePolicy(
            concurrencyLimit: .init(maxConcurrent: 1, maxQueued: 0), retry: .init(maxRetries: 3, backoff: .constant(.seconds(1))))
        let pipeline = ResiliencePipeline(policy)
        let backend = ScriptedBackend([.valueAfter(.seconds(5))], scheduler: scheduler)
        let first = call(backend, pipeline, scheduler)
        let second = call(backend, pipeline, scheduler)
        // The refusal is not retried: the limiter sheds load before anything starts.
        #expect(second.failure == .limiterRejected(LimiterRejectedError(reason: .queueFull, retryAfter: nil)))
        #expect(pipeline.concurrencyLimiter?.inUse == 1)
        scheduler.advance(by: .seconds(5))
        #expect(first.values == [1])
        #expect(pipeline.concurrencyLimiter?.inUse == 0)
        #expect(backend.callCount == 1)
    }

    @Test func theRateLimiterSpacesCalls() {
        let scheduler = TestScheduler()
        let policy = ResiliencePolicy(rateLimit: .init(permits: 1, per: .seconds(1), maxWait: .seconds(5)))
        let pipeline = ResiliencePipeline(policy)
        let backend = ScriptedBackend([.value], scheduler: scheduler)
        let calls = (0..<3).map { _ in call(backend, pipeline, scheduler) }
        scheduler.advance(by: .seconds(10))
        #expect(calls.map(\.values) == [[1], [1], [1]])
        #expect(backend.callTimes == [.seconds(0), .seconds(1), .seconds(2)])
    }

    @Test func theBudgetStopsRetriesAcrossCalls() {
        let scheduler = TestScheduler()
        let policy = ResiliencePolicy.retrying(
            3, backoff: .constant(.seconds(1)), budget: .init(capacity: 10, retryCost: 5, successRefill: 1))
        let pipeline = ResiliencePipeline(policy)
        let backend = ScriptedBackend([.failure(.outage)], scheduler: scheduler)
        let first = call(backend, pipeline, scheduler)
        scheduler.advance(by: .seconds(10))
        let second = call(backend, pipeline, scheduler)
        scheduler.advance(by: .seconds(10))
        // Two retries emptied the budget: the second call is not retried at all.
        #expect(first.failure == .upstream(.outage))
        #expect(second.failure == .upstream(.outage))
        #expect(backend.callCount == 4)
        #expect(pipeline.retryBudget?.available == 0)
    }

    @Test func theSeededJitterRepeatsAndDiffersPerSubscription() {
        func delays(seed: UInt64) -> [String] {
            let scheduler = TestScheduler()
            let timeline = ResilienceTimeline(scheduler: scheduler)
            var policy = ResiliencePolicy.retrying(2, backoff: .exponential(initial: .seconds(1), jitter: .full))
            policy.jitterSeed = seed
            let pipeline = Self.pipeline(policy, timeline)
            let backend = ScriptedBackend([.failure(.outage)], scheduler: scheduler)
            for _ in 0..<2 { call(backend, pipeline, scheduler) }
            scheduler.advance(by: .seconds(60))
            return timeline.entries
        }
        let run = delays(seed: 9)
        #expect(run == delays(seed: 9))
        #expect(run != delays(seed: 10))
        // The two subscriptions' first retries were drawn from different seeds.
        #expect(run[0] != run[1])
    }

    @Test func onePolicyValueMakesOnePipelinePerResilientPublisher() {
        let scheduler = TestScheduler()
        let policy = ResiliencePolicy(
            circuitBreaker: .init(failureRatio: 1, window: .count(10), minimumThroughput: 1, breakDuration: .seconds(5)))
        let backend = ScriptedBackend([.failure(.outage)], scheduler: scheduler)
        let guarded = backend.publisher.resilient(policy, scheduler: scheduler)
        let first = Guarded()
        guarded.subscribe(first)
        let second = Guarded()
        guarded.subscribe(second)
        // The second subscription shares the first's breaker, which opened.
        #expect(second.failure == .circuitOpen(CircuitOpenError(state: .open, retryAfter: .seconds(5))))
        // Another publisher from the same policy value has a breaker of its own.
        let other = Guarded()
        backend.publisher.resilient(policy, scheduler: scheduler).subscribe(other)
        #expect(other.failure == .upstream(.outage))
        #expect(backend.callCount == 2)
    }

    /// A stage that counts the attempts that the retry makes through it.
    struct CountingStage: ResilienceStage {
        let count: Locked<Int>
        func apply<Output, Failure: Error, S: Scheduler>(
            to attempt: AnyPublisher<Output, ResilienceError<Failure>>, pipeline: ResiliencePipeline, scheduler: S
        ) -> AnyPublisher<Output, ResilienceError<Failure>> where S.SchedulerTimeType: TimelineInstant {
            attempt.handleEvents(receiveSubscription: { _ in count.withLock { $0 += 1 } }).eraseToAnyPublisher()
        }
    }

    @Test func theHedgingStageWrapsEachAttemptBetweenRetryAndBreaker() {
        let scheduler = TestScheduler()
        let count = Locked(0)
        let policy = ResiliencePolicy(
            retry: .init(maxRetries: 2, backoff: .constant(.seconds(1))), hedging: CountingStage(count: count),
            circuitBreaker: .init(failureRatio: 1, window: .count(10), minimumThroughput: 100))
        let backend = ScriptedBackend([.failure(.outage)], scheduler: scheduler)
        let subscriber = call(backend, ResiliencePipeline(policy), scheduler)
        scheduler.advance(by: .seconds(10))
        #expect(subscriber.failure == .upstream(.outage))
        #expect(count.withLock { $0 } == 3)
        #expect(backend.callCount == 3)
    }

    @Test func hedgingRacesASlowAttemptInsideTheRetryAndItsFirstAnswerWins() {
        let scheduler = TestScheduler()
        let timeline = ResilienceTimeline(scheduler: scheduler)
        let policy = ResiliencePolicy(
            retry: .init(maxRetries: 1, backoff: .constant(.seconds(1))), hedging: Hedging(maxAttempts: 2, delay: .seconds(2)))
        let backend = ScriptedBackend([.hang, .value], scheduler: scheduler)
        let subscriber = call(backend, Self.pipeline(policy, timeline), scheduler)
        scheduler.advance(by: .seconds(60))
        #expect(timeline.entries == ["2 s: hedge 2 started"])
        #expect(subscriber.values == [1])
        #expect(backend.callTimes == [.seconds(0), .seconds(2)])
    }

    @Test func theBudgetsTimeoutCostIsAPolicySetting() {
        func spent(_ budget: ResiliencePolicy.Budget) -> Int? {
            let scheduler = TestScheduler()
            let policy = ResiliencePolicy(
                retry: .init(maxRetries: 1, backoff: .constant(.seconds(1)), budget: budget), attemptTimeout: .seconds(1))
            let pipeline = ResiliencePipeline(policy)
            call(ScriptedBackend([.hang], scheduler: scheduler), pipeline, scheduler)
            scheduler.advance(by: .seconds(10))
            return pipeline.retryBudget.map { $0.capacity - $0.available }
        }
        // One retry after a timed-out attempt: twice the retry cost by default, or as set.
        #expect(spent(.init()) == 10)
        #expect(spent(.init(timeoutCost: 7)) == 7)
        #expect(ResiliencePolicy.standardHTTP.retry?.budget?.timeoutCost == nil)
        #expect(ResiliencePipeline(.standardHTTP).retryBudget?.timeoutCost == 10)
    }

    @Test func aTransientRetryStartsItsCountAgainAfterAValue() {
        func run(transient: Bool) -> (Guarded, Int) {
            let scheduler = TestScheduler()
            let calls = Locked(0)
            // Every attempt sends a value, then fails.
            let flaky = Deferred {
                calls.withLock { $0 += 1 }
                return Just(1).setFailureType(to: BackendError.self).append(Fail(error: BackendError.outage))
            }
            var policy = ResiliencePolicy.retrying(1, backoff: .constant(.seconds(1)))
            policy.retry?.transient = transient
            let subscriber = Guarded()
            flaky.resilient(policy, scheduler: scheduler).subscribe(subscriber)
            scheduler.advance(by: .milliseconds(4_500))
            return (subscriber, calls.withLock { $0 })
        }
        let (plain, plainCalls) = run(transient: false)
        #expect(plain.failure == .upstream(.outage))
        #expect(plainCalls == 2)
        // With `transient`, each value makes the next failure retry 1 again: attempts at 0, 1, 2, 3, 4 s.
        let (transient, transientCalls) = run(transient: true)
        #expect(transient.completion == nil)
        #expect(transient.values == [1, 1, 1, 1, 1])
        #expect(transientCalls == 5)
    }

    @Test func theRetrysCategoriesChooseWhatIsRetried() {
        func calls(_ retryOn: Set<ErrorCategory>?, _ error: BackendError) -> Int {
            let scheduler = TestScheduler()
            let backend = ScriptedBackend([.failure(error)], scheduler: scheduler)
            var retry = ResiliencePolicy.Retry(maxRetries: 2, backoff: .constant(.seconds(1)))
            if let retryOn { retry.retryOn = retryOn }
            call(backend, ResiliencePipeline(ResiliencePolicy(retry: retry)), scheduler)
            scheduler.advance(by: .seconds(10))
            return backend.callCount
        }
        #expect(calls(nil, .outage) == 3)
        #expect(calls(nil, .badRequest) == 1)
        #expect(calls([], .outage) == 1)
        #expect(calls([.retryable, .nonRetryable], .badRequest) == 3)
    }

    @Test func onRetryGiveUpIsToldWhyWithTheErrorDelivered() {
        let scheduler = TestScheduler()
        let reports = Locked<[RetryReport<any Error>]>([])
        var policy = ResiliencePolicy.retrying(2, backoff: .constant(.seconds(1)))
        policy.onRetryGiveUp = { report in reports.withLock { $0.append(report) } }
        let pipeline = ResiliencePipeline(policy)
        let exhausted = call(ScriptedBackend([.failure(.outage)], scheduler: scheduler), pipeline, scheduler)
        let refused = call(ScriptedBackend([.failure(.badRequest)], scheduler: scheduler), pipeline, scheduler)
        scheduler.advance(by: .seconds(10))
        let seen = reports.withLock { $0 }
        #expect(seen.map(\.reason) == [.notRetryable, .exhausted])
        #expect(seen.map(\.attempts) == [1, 3])
        #expect(seen.map { $0.error as? ResilienceError<BackendError> } == [.upstream(.badRequest), .upstream(.outage)])
        // The hook changes nothing that is delivered.
        #expect(exhausted.failure == .upstream(.outage))
        #expect(refused.failure == .upstream(.badRequest))
    }

    @Test func theBreakersCategoriesChooseWhichFailuresCount() {
        func secondCall(_ failures: Set<ErrorCategory>?) -> ResilienceError<BackendError>? {
            let scheduler = TestScheduler()
            var policy = ResiliencePolicy(circuitBreaker: .init(failureRatio: 1, window: .count(10), minimumThroughput: 1))
            if let failures { policy.circuitBreakerFailures = failures }
            let pipeline = ResiliencePipeline(policy)
            let backend = ScriptedBackend([.failure(.badRequest)], scheduler: scheduler)
            call(backend, pipeline, scheduler)
            return call(backend, pipeline, scheduler).failure
        }
        // By default a bad request says nothing about the backend's health.
        #expect(secondCall(nil) == .upstream(.badRequest))
        #expect(secondCall([.retryable, .nonRetryable]) == .circuitOpen(CircuitOpenError(state: .open, retryAfter: .seconds(5))))
    }

    @Test func theBreakersSlowCallThresholdCountsSlowCallsAsFailures() {
        let scheduler = TestScheduler()
        let policy = ResiliencePolicy(
            circuitBreaker: .init(failureRatio: 1, window: .count(10), minimumThroughput: 1, slowCallThreshold: .seconds(1)))
        let pipeline = ResiliencePipeline(policy)
        let backend = ScriptedBackend([.valueAfter(.seconds(2)), .value], scheduler: scheduler)
        let slow = call(backend, pipeline, scheduler)
        scheduler.advance(by: .seconds(2))
        #expect(slow.values == [1])
        #expect(pipeline.circuitBreaker?.currentState == .open)
        #expect(
            call(backend, pipeline, scheduler).failure == .circuitOpen(CircuitOpenError(state: .open, retryAfter: .seconds(5))))
        #expect(backend.callCount == 1)
    }

    @Test func hedgingsCategoriesChooseWhichFailuresStartTheNextAttempt() {
        func run(_ hedging: Hedging) -> (Guarded, ScriptedBackend) {
            let scheduler = TestScheduler()
            let backend = ScriptedBackend([.failure(.outage), .value], scheduler: scheduler)
            let subscriber = call(backend, ResiliencePipeline(ResiliencePolicy(hedging: hedging)), scheduler)
            scheduler.advance(by: .seconds(10))
            return (subscriber, backend)
        }
        let (hedged, hedgedBackend) = run(Hedging(maxAttempts: 2, delay: .seconds(5)))
        #expect(hedged.values == [1])
        #expect(hedgedBackend.callTimes == [.seconds(0), .seconds(0)])
        let (strict, strictBackend) = run(Hedging(maxAttempts: 2, delay: .seconds(5), nonFatal: []))
        #expect(strict.failure == .upstream(.outage))
        #expect(strictBackend.callCount == 1)
    }

    @Test func hedgingNeedsAtLeastOneAttempt() async {
        await #expect(processExitsWith: .failure) {
            _ = Hedging(maxAttempts: 0)
        }
    }
}
