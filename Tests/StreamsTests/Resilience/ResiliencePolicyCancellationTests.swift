import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// Cancelling a policy-guarded call in each state it can be in: it stops at once, gives back its
/// permits, and nothing happens afterwards.
@Suite("ResiliencePolicy cancellation")
struct ResiliencePolicyCancellationTests {
    typealias Guarded = TestSubscriber<Int, ResilienceError<BackendError>>

    static let policy = ResiliencePolicy(
        concurrencyLimit: .init(maxConcurrent: 1, maxQueued: 1),
        totalTimeout: .seconds(30),
        retry: .init(maxRetries: 3, backoff: .constant(.seconds(2)), budget: .init()),
        circuitBreaker: .init(failureRatio: 1, window: .count(10), minimumThroughput: 1, breakDuration: .seconds(5)),
        attemptTimeout: .seconds(10))

    /// Runs `reply` through a fresh pipeline, lets `before` pass, cancels, then runs the clock
    /// on: returns the pipeline, the backend and the subscriber.
    func cancel(
        after seconds: Int, replies: [BackendReply], occupy: Bool = false, policy: ResiliencePolicy = Self.policy,
        scheduler: TestScheduler = TestScheduler()
    ) -> (ResiliencePipeline, ScriptedBackend, Guarded, ResilienceTimeline) {
        let timeline = ResilienceTimeline(scheduler: scheduler)
        let pipeline = ResiliencePipeline(policy, events: timeline.events)
        let backend = ScriptedBackend(replies, scheduler: scheduler)
        let blocker = Guarded()
        if occupy { backend.publisher.resilient(pipeline, scheduler: scheduler).subscribe(blocker) }
        let subscriber = Guarded()
        backend.publisher.resilient(pipeline, scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(seconds))
        subscriber.cancel()
        let seen = timeline.entries.count
        let calls = backend.callCount
        blocker.cancel()
        scheduler.advance(by: .seconds(120))
        #expect(timeline.entries.count == seen)
        #expect(backend.callCount == calls)
        #expect(subscriber.completion == nil)
        #expect(pipeline.concurrencyLimiter?.inUse == 0)
        #expect(pipeline.concurrencyLimiter?.queued == 0)
        return (pipeline, backend, subscriber, timeline)
    }

    @Test func whileQueuedForAPermit() {
        let (_, backend, _, _) = cancel(after: 1, replies: [.hang], occupy: true)
        // Only the blocker reached the backend.
        #expect(backend.callCount == 1)
    }

    @Test func duringAnAttempt() {
        let (pipeline, backend, _, _) = cancel(after: 1, replies: [.hang])
        #expect(backend.callCount == 1)
        #expect(pipeline.circuitBreaker?.currentState == .closed)
    }

    @Test func whileWaitingToRetry() {
        var policy = Self.policy
        policy.circuitBreaker = nil
        let (pipeline, backend, _, timeline) = cancel(after: 1, replies: [.failure(.outage)], policy: policy)
        #expect(timeline.entries == ["0 s: retry 1 in 2 s"])
        #expect(backend.callCount == 1)
        // The retry was paid for when it was scheduled; the budget keeps it.
        #expect(pipeline.retryBudget?.available == 495)
    }

    @Test func whileWaitingOutAnOpenCircuit() {
        let (pipeline, backend, _, timeline) = cancel(after: 3, replies: [.failure(.outage)])
        // 0 s: fails and opens the circuit; 2 s: refused (3 s left); cancelled at 3 s while waiting.
        #expect(
            timeline.entries == [
                "0 s: circuit open", "0 s: retry 1 in 2 s", "2 s: circuit refused (open, 3 s left)", "2 s: retry 2 in 3 s",
            ])
        #expect(backend.callCount == 1)
        // Both retries were paid for when they were scheduled.
        #expect(pipeline.retryBudget?.available == 490)
    }

    @Test func whileAHedgeIsRacing() {
        var policy = Self.policy
        policy.hedging = Hedging(maxAttempts: 3, delay: .seconds(1))
        let (pipeline, backend, _, timeline) = cancel(after: 1, replies: [.hang], policy: policy)
        // Two attempts race at 1 s; neither the third hedge (2 s) nor their timeouts (10 s, 11 s) follow.
        #expect(timeline.entries == ["1 s: hedge 2 started"])
        #expect(backend.callCount == 2)
        // Cancelled calls count as nothing to the breaker; the hedge that was made keeps its cost.
        #expect(pipeline.circuitBreaker?.currentState == .closed)
        #expect(pipeline.retryBudget?.available == 495)
    }

    @Test func whileWaitingForARateLimitersToken() {
        var policy = Self.policy
        policy.rateLimit = .init(permits: 1, per: .seconds(1000), maxWait: .seconds(1000))
        let scheduler = TestScheduler()
        // The blocker takes the only token at 0 s; the call waits for the next (1000 s) and is
        // cancelled at 1 s.
        let (pipeline, backend, _, _) = cancel(
            after: 1, replies: [.hang], occupy: true, policy: policy, scheduler: scheduler)
        #expect(backend.callCount == 1)
        // The token it waited for was given back: a call at 121 s gets it at 1000 s, within its
        // wait, where it would otherwise wait for the one after (2000 s) and be refused.
        let next = Guarded()
        backend.publisher.resilient(pipeline, scheduler: scheduler).subscribe(next)
        #expect(next.completion == nil)
        scheduler.advance(to: .seconds(1000))
        #expect(backend.callTimes.dropFirst().first == .seconds(1000))
        next.cancel()
    }
}
