import Streams
import StreamsResilience
import StreamsTesting
import Testing

@Suite("RateLimiter")
struct RateLimiterTests {
    typealias Guarded = TestSubscriber<Int, ResilienceError<BackendError>>

    @Test func rejectsBeyondTheBurstWithTheTimeUntilTheNextToken() {
        let scheduler = TestScheduler()
        let limiter = RateLimiter(permits: 2, per: .seconds(1))
        let backend = ScriptedBackend([.value], scheduler: scheduler)
        let subscribers = (0..<3).map { _ in Guarded() }
        for subscriber in subscribers { backend.publisher.rateLimiter(limiter, scheduler: scheduler).subscribe(subscriber) }
        #expect(subscribers[0...1].map(\.values) == [[1], [1]])
        #expect(
            subscribers[2].completion
                == .failure(.limiterRejected(LimiterRejectedError(reason: .rateLimited, retryAfter: .milliseconds(500)))))
        #expect(backend.callCount == 2)
        // Tokens come back at the rate, up to the burst.
        scheduler.advance(by: .milliseconds(500))
        #expect(limiter.available(at: scheduler.now) == 1)
        scheduler.advance(by: .seconds(10))
        #expect(limiter.available(at: scheduler.now) == 2)
    }

    @Test func delaysWithinMaxWaitIntoASteadyRate() {
        let scheduler = TestScheduler()
        let limiter = RateLimiter(permits: 2, per: .seconds(1), burst: 1, maxWait: .seconds(1))
        let backend = ScriptedBackend([.value], scheduler: scheduler)
        let subscribers = (0..<4).map { _ in Guarded() }
        for subscriber in subscribers { backend.publisher.rateLimiter(limiter, scheduler: scheduler).subscribe(subscriber) }
        scheduler.advance(by: .seconds(5))
        // One at once, then one every half second; the fourth would wait 1.5 s: refused.
        #expect(backend.callTimes == [.seconds(0), VirtualTime(nanoseconds: 500_000_000), .seconds(1)])
        #expect(subscribers[3].failure?.retryAfter == .milliseconds(1_500))
    }

    @Test func demandAskedWhileWaitingIsAskedOfTheUpstream() {
        let scheduler = TestScheduler()
        let limiter = RateLimiter(permits: 1, per: .seconds(1), maxWait: .seconds(1))
        let first = Guarded()
        Just(0).setFailureType(to: BackendError.self).rateLimiter(limiter, scheduler: scheduler).subscribe(first)
        let waiting = Guarded(initialDemand: .max(2))
        [1, 2, 3].publisher.setFailureType(to: BackendError.self).rateLimiter(limiter, scheduler: scheduler).subscribe(waiting)
        #expect(waiting.subscriptionCount == 1)
        #expect(waiting.values == [])
        scheduler.advance(by: .seconds(1))
        #expect(waiting.values == [1, 2])
    }

    @Test func cancellingWhileWaitingGivesTheTokenBackAndRemovesTheWait() {
        let scheduler = TestScheduler()
        let limiter = RateLimiter(permits: 1, per: .seconds(1), maxWait: .seconds(1))
        let backend = ScriptedBackend([.value], scheduler: scheduler)
        backend.publisher.rateLimiter(limiter, scheduler: scheduler).subscribe(Guarded())
        let waiting = Guarded()
        backend.publisher.rateLimiter(limiter, scheduler: scheduler).subscribe(waiting)
        #expect(scheduler.scheduledCount == 1)
        waiting.cancel()
        #expect(scheduler.scheduledCount == 0)
        // The reserved token is back: the next call waits one second, not two.
        let next = Guarded()
        backend.publisher.rateLimiter(limiter, scheduler: scheduler).subscribe(next)
        scheduler.advance(by: .seconds(1))
        #expect(next.values == [1])
        #expect(backend.callTimes == [.seconds(0), .seconds(1)])
    }

    @Test func aRejectionIsRetriedAfterItsHint() {
        let scheduler = TestScheduler()
        let limiter = RateLimiter(permits: 1, per: .seconds(3))
        let backend = ScriptedBackend([.value], scheduler: scheduler)
        backend.publisher.rateLimiter(limiter, scheduler: scheduler).subscribe(Guarded())
        let subscriber = Guarded()
        backend.publisher.rateLimiter(limiter, scheduler: scheduler)
            .retry(3, backoff: .constant(.milliseconds(100)), scheduler: scheduler)
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        // Refused at 0 s with 3 s to wait: the retry waits for the token rather than its backoff.
        #expect(backend.callTimes == [.seconds(0), .seconds(3)])
        #expect(subscriber.values == [1])
    }

    @Test func anOutOfRangeLimiterStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = RateLimiter(permits: 0, per: .seconds(1))
        }
    }
}
