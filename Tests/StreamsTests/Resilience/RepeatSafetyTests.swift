import Foundation
import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// A call that is not safe to repeat (a POST without an `Idempotency-Key`) is never sent again
/// after a timeout of any kind, and never hedged, by every strategy of both faces; a refusal and
/// the call's own retryable errors are still retried.
@Suite("Repeat safety")
struct RepeatSafetyTests {
    typealias Guarded = TestSubscriber<Int, ResilienceError<BackendError>>

    static let timedRetry = ResiliencePolicy(
        retry: .init(maxRetries: 2, backoff: .constant(.seconds(1))), attemptTimeout: .seconds(1))

    func call(_ backend: ScriptedBackend, _ policy: ResiliencePolicy, _ scheduler: TestScheduler, safe: Bool) -> Guarded {
        let subscriber = Guarded()
        backend.publisher.resilient(policy, scheduler: scheduler, isSafeToRepeat: safe).subscribe(subscriber)
        return subscriber
    }

    @Test func aCallNotSafeToRepeatIsNotRetriedAfterItsAttemptTimesOut() {
        let scheduler = TestScheduler()
        let backend = ScriptedBackend([.hang, .value], scheduler: scheduler)
        let subscriber = call(backend, Self.timedRetry, scheduler, safe: false)
        scheduler.advance(by: .seconds(60))
        #expect(backend.callCount == 1)
        #expect(subscriber.failure == .attemptTimedOut(AttemptTimeoutError(timeout: .seconds(1), isSafeToRepeat: false)))
        #expect(subscriber.failure?.category == .nonRetryable)
    }

    @MainActor @Test func theBreakerCountsATimedOutCallNotSafeToRepeatAsAFailure() async throws {
        // Its timeout is not retryable (the retry leaves it alone), but the backend is as slow.
        let policy = ResiliencePolicy(
            circuitBreaker: .init(failureRatio: 0.5, window: .count(2), minimumThroughput: 2, breakDuration: .seconds(5)),
            attemptTimeout: .seconds(1))
        let scheduler = TestScheduler()
        let pipeline = ResiliencePipeline(policy)
        let backend = ScriptedBackend([.hang], scheduler: scheduler)
        let subscriber = Guarded()
        backend.publisher.resilient(pipeline, scheduler: scheduler, isSafeToRepeat: false).subscribe(subscriber)
        await scheduler.advance(by: .seconds(1))
        #expect(subscriber.failure?.category == .nonRetryable)

        let clock = TestClock(scheduler: scheduler)
        let task = Task { @MainActor in
            try await pipeline.execute(clock: clock, isSafeToRepeat: false) { _ in
                try await clock.sleep(for: .seconds(10))
                return 1
            }
        }
        while scheduler.scheduledCount < 2 { await Task.yield() }
        await clock.advance(by: .seconds(1))
        await #expect(throws: AttemptTimeoutError.self) { try await task.value }
        #expect(pipeline.circuitBreaker?.currentState == .open)
    }

    @Test func aCallSafeToRepeatIsRetriedAfterItsAttemptTimesOut() {
        let scheduler = TestScheduler()
        let backend = ScriptedBackend([.hang, .value], scheduler: scheduler)
        let subscriber = call(backend, Self.timedRetry, scheduler, safe: true)
        scheduler.advance(by: .seconds(60))
        #expect(backend.callTimes == [.seconds(0), .seconds(2)])
        #expect(subscriber.values == [1])
    }

    @Test func aCallNotSafeToRepeatIsStillRetriedAfterItsOwnRetryableErrorAndARefusal() {
        let first = TestScheduler()
        let own = ScriptedBackend([.failure(.outage), .value], scheduler: first)
        let retried = call(own, Self.timedRetry, first, safe: false)
        first.advance(by: .seconds(60))
        #expect(retried.values == [1])
        // An open circuit refused the call: nothing was sent, so sending it later is safe.
        let scheduler = TestScheduler()
        let policy = ResiliencePolicy(
            retry: .init(maxRetries: 1, backoff: .immediate),
            circuitBreaker: .init(failureRatio: 0.5, window: .count(2), minimumThroughput: 1, breakDuration: .seconds(5)),
            circuitBreakerFailures: [.retryable, .nonRetryable])
        let pipeline = ResiliencePipeline(policy)
        let opener = ScriptedBackend([.failure(.badRequest)], scheduler: scheduler)
        let opened = Guarded()
        opener.publisher.resilient(pipeline, scheduler: scheduler, isSafeToRepeat: false).subscribe(opened)
        #expect(pipeline.circuitBreaker?.currentState == .open)
        let refused = ScriptedBackend([.value], scheduler: scheduler)
        let waited = Guarded()
        refused.publisher.resilient(pipeline, scheduler: scheduler, isSafeToRepeat: false).subscribe(waited)
        scheduler.advance(by: .seconds(5))
        #expect(waited.values == [1])
        #expect(refused.callTimes == [.seconds(5)])
    }

    @Test func aTimeoutFromTheUpstreamIsNotRetriedForACallNotSafeToRepeat() {
        // A transport's timeout, the upstream's own error: retryable by its category, but it may
        // have reached the server.
        func calls(safe: Bool) -> Int {
            let scheduler = TestScheduler()
            let count = Locked(0)
            let upstream = Deferred { () -> Fail<Int, URLError> in
                count.withLock { $0 += 1 }
                return Fail(error: URLError(.timedOut))
            }
            let policy = ResiliencePolicy(retry: .init(maxRetries: 2, backoff: .immediate, retryOn: [.retryable, .nonRetryable]))
            let subscriber = TestSubscriber<Int, ResilienceError<URLError>>()
            upstream.resilient(policy, scheduler: scheduler, isSafeToRepeat: safe).subscribe(subscriber)
            scheduler.advance(by: .seconds(1))
            #expect(subscriber.failure == .upstream(URLError(.timedOut)))
            return count.withLock { $0 }
        }
        #expect(calls(safe: false) == 1)
        #expect(calls(safe: true) == 3)
    }

    @Test func aTimeoutThatKnowsItNeverReachedTheServerIsRetried() {
        let scheduler = TestScheduler()
        let count = Locked(0)
        let upstream = Deferred { () -> AnyPublisher<Int, AttemptTimeoutError> in
            let number = count.withLock { count in
                count += 1
                return count
            }
            guard number == 1 else { return Just(1).setFailureType(to: AttemptTimeoutError.self).eraseToAnyPublisher() }
            return Fail(error: AttemptTimeoutError(timeout: .seconds(1), mayHaveReachedServer: false, isSafeToRepeat: false))
                .eraseToAnyPublisher()
        }
        let subscriber = TestSubscriber<Int, ResilienceError<AttemptTimeoutError>>()
        upstream.resilient(
            ResiliencePolicy(retry: .init(maxRetries: 2, backoff: .immediate)), scheduler: scheduler, isSafeToRepeat: false
        )
        .subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1])
        #expect(count.withLock { $0 } == 2)
    }

    @Test func aCallNotSafeToRepeatIsNeverHedged() {
        func callTimes(safe: Bool) -> [VirtualTime] {
            let scheduler = TestScheduler()
            let backend = ScriptedBackend([.hang, .value], scheduler: scheduler)
            let policy = ResiliencePolicy(hedging: Hedging(maxAttempts: 3, delay: .seconds(1)))
            let subscriber = call(backend, policy, scheduler, safe: safe)
            scheduler.advance(by: .seconds(10))
            subscriber.cancel()
            return backend.callTimes
        }
        #expect(callTimes(safe: false) == [.seconds(0)])
        #expect(callTimes(safe: true) == [.seconds(0), .seconds(1)])
    }

    @Test func theHedgeOperatorMakesOneAttemptForACallNotSafeToRepeat() {
        let scheduler = TestScheduler()
        let backend = ScriptedBackend([.hang, .value], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, BackendError>()
        backend.publisher.hedge(maxAttempts: 3, delay: .seconds(1), isSafeToRepeat: false, scheduler: scheduler)
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(backend.callCount == 1)
        subscriber.cancel()
    }

    @Test func aHandBuiltAttemptTimeoutTellsAnyRetryNotToRepeatTheCall() {
        func calls(safe: Bool) -> (Int, ResilienceError<BackendError>?) {
            let scheduler = TestScheduler()
            let backend = ScriptedBackend([.hang], scheduler: scheduler)
            let subscriber = Guarded()
            backend.publisher
                .attemptTimeout(.seconds(1), scheduler: scheduler, isSafeToRepeat: safe)
                .retry(2, backoff: .immediate, scheduler: scheduler)
                .subscribe(subscriber)
            scheduler.advance(by: .seconds(10))
            return (backend.callCount, subscriber.failure)
        }
        let (unsafeCalls, unsafeFailure) = calls(safe: false)
        #expect(unsafeCalls == 1)
        #expect(unsafeFailure == .attemptTimedOut(AttemptTimeoutError(timeout: .seconds(1), isSafeToRepeat: false)))
        #expect(calls(safe: true).0 == 3)
    }

    // MARK: A request that says it is not safe to repeat

    /// `publisher`, saying when subscribed that its call is not safe to repeat, as
    /// StreamsNetworking's request publishers do for a POST without an `Idempotency-Key`.
    func declaring<P: Publisher>(_ publisher: P) -> Deferred<P> {
        Deferred {
            RepeatSafety.declareNotSafe()
            return publisher
        }
    }

    @Test func aRequestThatSaysItIsNotSafeToRepeatIsNotRetriedAfterItsAttemptTimesOutUntold() {
        let scheduler = TestScheduler()
        let backend = ScriptedBackend([.hang, .value], scheduler: scheduler)
        let subscriber = Guarded()
        declaring(backend.publisher).map { $0 }.resilient(Self.timedRetry, scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(60))
        #expect(backend.callCount == 1)
        #expect(subscriber.failure == .attemptTimedOut(AttemptTimeoutError(timeout: .seconds(1), isSafeToRepeat: false)))
    }

    @Test func aRequestThatSaysItIsNotSafeToRepeatIsNeverHedgedUntold() {
        let scheduler = TestScheduler()
        let backend = ScriptedBackend([.hang, .value], scheduler: scheduler)
        let subscriber = Guarded()
        let policy = ResiliencePolicy(hedging: Hedging(maxAttempts: 3, delay: .seconds(1)))
        declaring(backend.publisher).resilient(policy, scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(backend.callTimes == [.seconds(0)])
        subscriber.cancel()
    }

    @Test func theOperatorsOnTheirOwnHearARequestThatIsNotSafeToRepeat() {
        let scheduler = TestScheduler()
        let timed = ScriptedBackend([.hang], scheduler: scheduler)
        let retried = Guarded()
        declaring(timed.publisher)
            .attemptTimeout(.seconds(1), scheduler: scheduler)
            .retry(2, backoff: .immediate, scheduler: scheduler)
            .subscribe(retried)
        let hedgedBackend = ScriptedBackend([.hang, .value], scheduler: scheduler)
        let hedged = TestSubscriber<Int, BackendError>()
        declaring(hedgedBackend.publisher).hedge(maxAttempts: 3, delay: .seconds(1), scheduler: scheduler).subscribe(hedged)
        scheduler.advance(by: .seconds(10))
        #expect(timed.callCount == 1)
        #expect(retried.failure == .attemptTimedOut(AttemptTimeoutError(timeout: .seconds(1), isSafeToRepeat: false)))
        #expect(hedgedBackend.callCount == 1)
        hedged.cancel()
    }

    @MainActor @Test func anAsyncCallWhoseRequestSaysItIsNotSafeToRepeatIsNeitherHedgedNorRepeated() async {
        let scheduler = TestScheduler()
        let clock = TestClock(scheduler: scheduler)
        let policy = ResiliencePolicy(hedging: Hedging(maxAttempts: 2, delay: .seconds(1)), attemptTimeout: .seconds(3))
        let attempts = Locked(0)
        let thrown = Locked<(any Error)?>(nil)
        let task = Task { @MainActor in
            do {
                _ = try await ResiliencePipeline(policy).execute(clock: clock) { _ in
                    attempts.withLock { $0 += 1 }
                    RepeatSafety.declareNotSafe()
                    try await clock.sleep(for: .seconds(10))
                    return 1
                }
            } catch {
                thrown.withLock { $0 = error }
            }
        }
        // The hedge's delay, the attempt timeout and the attempt's own sleep.
        while scheduler.scheduledCount < 3 { await Task.yield() }
        await clock.advance(by: .seconds(1))
        #expect(attempts.withLock { $0 } == 1)
        await clock.advance(by: .seconds(2))
        // A hedged copy would still be running: wait a bounded while, never for it.
        for _ in 0..<1000 where thrown.withLock({ $0 }) == nil { await Task.yield() }
        let error = thrown.withLock { $0 } as? AttemptTimeoutError
        #expect(error == AttemptTimeoutError(timeout: .seconds(3), isSafeToRepeat: false))
        #expect(attempts.withLock { $0 } == 1)
        task.cancel()
    }

    @Test func theAttemptTimeoutErrorSaysWhetherItMayBeRepeated() {
        #expect(AttemptTimeoutError(timeout: .seconds(1)).category == .retryable)
        #expect(AttemptTimeoutError(timeout: .seconds(1), isSafeToRepeat: false).category == .nonRetryable)
        #expect(
            AttemptTimeoutError(timeout: .seconds(1), mayHaveReachedServer: false, isSafeToRepeat: false).category == .retryable)
        #expect(AttemptTimeoutError(timeout: .seconds(1)).mayHaveReachedServer)
    }
}
