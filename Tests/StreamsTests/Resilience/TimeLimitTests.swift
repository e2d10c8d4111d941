import Streams
import StreamsResilience
import StreamsTesting
import Testing

@Suite("attemptTimeout and deadline")
struct TimeLimitTests {
    typealias Guarded = TestSubscriber<Int, ResilienceError<BackendError>>

    @Test func anAttemptThatIsTooSlowFailsWithARetryableError() {
        let scheduler = TestScheduler()
        let backend = ScriptedBackend([.hang], scheduler: scheduler)
        let subscriber = Guarded()
        backend.publisher.attemptTimeout(.seconds(2), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .milliseconds(1_999))
        #expect(subscriber.completion == nil)
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.completion == .failure(.attemptTimedOut(AttemptTimeoutError(timeout: .seconds(2)))))
        #expect(subscriber.failure?.category == .retryable)
    }

    @Test func anAttemptInTimePassesItsValuesAndItsOwnError() {
        let scheduler = TestScheduler()
        let quick = Guarded()
        ScriptedBackend([.valueAfter(.seconds(1))], scheduler: scheduler).publisher
            .attemptTimeout(.seconds(2), scheduler: scheduler).subscribe(quick)
        let failing = Guarded()
        ScriptedBackend([.failure(.badRequest)], scheduler: scheduler).publisher
            .attemptTimeout(.seconds(2), scheduler: scheduler).subscribe(failing)
        scheduler.advance(by: .seconds(10))
        #expect(quick.values == [1])
        #expect(quick.completion == .finished)
        #expect(failing.completion == .failure(.upstream(.badRequest)))
        // Nothing is left on the scheduler once the attempts are over.
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func theTimeoutCancelsTheAttempt() {
        let scheduler = TestScheduler()
        let upstream = ManualUpstream<Int, BackendError>(failure: .outage) { $0 }
        let subscriber = Guarded()
        upstream.attemptTimeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        let subscription = upstream.subscriptions.last
        scheduler.advance(by: .seconds(1))
        #expect(subscription?.cancels == 1)
        // A value the attempt sends late is not delivered.
        upstream.ignoresCancel = true
        upstream.send(7)
        #expect(subscriber.values == [])
    }

    @Test func insideARetryEachAttemptGetsItsOwnTimeout() {
        let scheduler = TestScheduler()
        let backend = ScriptedBackend([.hang, .hang, .valueAfter(.seconds(1))], scheduler: scheduler)
        let subscriber = Guarded()
        backend.publisher
            .attemptTimeout(.seconds(2), scheduler: scheduler)
            .retry(3, backoff: .constant(.seconds(1)), scheduler: scheduler)
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(60))
        // Attempts at 0 s and 3 s time out at 2 s and 5 s; the third, at 6 s, answers at 7 s.
        #expect(backend.callTimes == [.seconds(0), .seconds(3), .seconds(6)])
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .finished)
    }

    @Test func theDeadlineBoundsAllAttemptsAndIsNotRetried() {
        let scheduler = TestScheduler()
        let backend = ScriptedBackend([.hang], scheduler: scheduler)
        let subscriber = Guarded()
        backend.publisher
            .attemptTimeout(.seconds(4), scheduler: scheduler)
            .retry(10, backoff: .constant(.seconds(1)), scheduler: scheduler)
            .deadline(.seconds(12), scheduler: scheduler)
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(60))
        // Attempts at 0, 5 and 10 s; the deadline at 12 s cuts the third one short.
        #expect(backend.callTimes == [.seconds(0), .seconds(5), .seconds(10)])
        #expect(subscriber.completion == .failure(.deadlineExceeded(DeadlineExceededError(deadline: .seconds(12)))))
        #expect(subscriber.failure?.category == .nonRetryable)
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func theDeadlineCancelsARetrysWait() {
        let scheduler = TestScheduler()
        let backend = ScriptedBackend([.failure(.outage)], scheduler: scheduler)
        let subscriber = Guarded()
        backend.publisher
            .retry(10, backoff: .constant(.seconds(10)), scheduler: scheduler)
            .deadline(.seconds(5), scheduler: scheduler)
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.completion == .failure(.deadlineExceeded(DeadlineExceededError(deadline: .seconds(5)))))
        #expect(scheduler.scheduledCount == 0)
        scheduler.advance(by: .seconds(60))
        #expect(backend.callCount == 1)
    }

    @Test func maxElapsedWithinTheDeadlineGivesUpWithTheLastErrorInstead() {
        let scheduler = TestScheduler()
        let backend = ScriptedBackend([.failure(.outage)], scheduler: scheduler)
        let subscriber = Guarded()
        backend.publisher
            .retry(10, backoff: .constant(.seconds(4)), maxElapsed: .seconds(10), scheduler: scheduler)
            .deadline(.seconds(10), scheduler: scheduler)
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(60))
        // Retries at 4 and 8 s; one at 12 s would start after both limits: the retry gives up at
        // 8 s with the backend's own error, without waiting to be cut off.
        #expect(backend.callTimes == [.seconds(0), .seconds(4), .seconds(8)])
        #expect(subscriber.completion == .failure(.upstream(.outage)))
    }

    @Test func cancellingStopsTheTimerInEveryPhase() {
        let scheduler = TestScheduler()
        // Before the upstream subscription: the subscription that arrives later is cancelled.
        let held = ManualUpstream<Int, BackendError>(failure: .outage) { $0 }
        held.holdsSubscription = true
        let early = Guarded()
        held.attemptTimeout(.seconds(1), scheduler: scheduler).subscribe(early)
        (held.subscriber as? any Subscription)?.cancel()
        #expect(held.sendSubscription()?.cancels == 1)
        #expect(early.subscriptionCount == 0)
        // While running: the upstream is cancelled and the timer removed.
        let running = Guarded()
        ScriptedBackend([.hang], scheduler: scheduler).publisher.deadline(.seconds(1), scheduler: scheduler).subscribe(running)
        running.cancel()
        #expect(scheduler.scheduledCount == 0)
        scheduler.advance(by: .seconds(5))
        #expect(running.completion == nil)
        // After the timeout: nothing more happens.
        let expired = Guarded()
        ScriptedBackend([.hang], scheduler: scheduler).publisher.attemptTimeout(.seconds(1), scheduler: scheduler)
            .subscribe(expired)
        scheduler.advance(by: .seconds(1))
        expired.cancel()
        #expect(expired.completions.count == 1)
    }

    @Test func bothDefaultToPollysThirtySeconds() {
        let scheduler = TestScheduler()
        let attempt = Guarded()
        ScriptedBackend([.hang], scheduler: scheduler).publisher.attemptTimeout(scheduler: scheduler).subscribe(attempt)
        let call = Guarded()
        ScriptedBackend([.hang], scheduler: scheduler).publisher.deadline(scheduler: scheduler).subscribe(call)
        // The stacked forms (over a ResilienceError) default alike.
        let stackedAttempt = Guarded()
        ScriptedBackend([.hang], scheduler: scheduler).publisher
            .deadline(.seconds(60), scheduler: scheduler).attemptTimeout(scheduler: scheduler).subscribe(stackedAttempt)
        let stackedCall = Guarded()
        ScriptedBackend([.hang], scheduler: scheduler).publisher
            .attemptTimeout(.seconds(60), scheduler: scheduler).deadline(scheduler: scheduler).subscribe(stackedCall)
        scheduler.advance(by: .milliseconds(29_999))
        #expect([attempt, call, stackedAttempt, stackedCall].allSatisfy { $0.completion == nil })
        scheduler.advance(by: .milliseconds(1))
        #expect(attempt.failure == .attemptTimedOut(AttemptTimeoutError(timeout: .seconds(30))))
        #expect(stackedAttempt.failure == .attemptTimedOut(AttemptTimeoutError(timeout: .seconds(30))))
        #expect(call.failure == .deadlineExceeded(DeadlineExceededError(deadline: .seconds(30))))
        #expect(stackedCall.failure == .deadlineExceeded(DeadlineExceededError(deadline: .seconds(30))))
    }

    @Test func aNegativeLimitStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = Just(1).attemptTimeout(.seconds(-1), scheduler: ImmediateScheduler.shared)
        }
        await #expect(processExitsWith: .failure) {
            _ = Just(1).deadline(.seconds(-1), scheduler: ImmediateScheduler.shared)
        }
    }
}
