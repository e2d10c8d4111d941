import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// The instant ten seconds after a test scheduler's start.
private let tenSeconds = VirtualTime(nanoseconds: 10_000_000_000)

@Suite("Chaos injection")
struct ChaosTests {
    enum APIError: CategorizedError, Equatable {
        case outage, unavailable
        var category: ErrorCategory { .retryable }
    }

    /// A backend that counts its subscriptions and answers 1.
    final class Backend: @unchecked Sendable {
        let calls = Locked(0)
        var count: Int { calls.withLock { $0 } }
        var publisher: AnyPublisher<Int, APIError> {
            Deferred { [calls] () -> Just<Int> in
                calls.withLock { $0 += 1 }
                return Just(1)
            }
            .setFailureType(to: APIError.self)
            .eraseToAnyPublisher()
        }
    }

    @Test func aFaultAtRateOneNeverReachesTheUpstream() {
        let backend = Backend()
        let subscriber = TestSubscriber<Int, APIError>()
        backend.publisher.injectFault(.outage).subscribe(subscriber)
        #expect(subscriber.completion == .failure(.outage))
        #expect(backend.count == 0)
    }

    @Test func aFaultAtARateHitsTheSameCallsForTheSameSeed() {
        func hits(seed: UInt64) -> [Bool] {
            let chaos = ChaosGenerator(seed: seed)
            let backend = Backend().publisher.injectFault(.outage, rate: 0.3, using: chaos)
            return (0..<100).map { _ in
                let subscriber = TestSubscriber<Int, APIError>()
                backend.subscribe(subscriber)
                return subscriber.completion == .failure(.outage)
            }
        }
        let run = hits(seed: 5)
        #expect(run == hits(seed: 5))
        #expect(run != hits(seed: 6))
        #expect(run.contains(true) && run.contains(false))
    }

    @Test func aWindowOfTimeTurnsTheFaultOnAndOff() {
        let scheduler = TestScheduler()
        let backend = Backend()
        let flaky = backend.publisher.injectFault(.outage, when: { scheduler.now < tenSeconds })
        let during = TestSubscriber<Int, APIError>()
        flaky.subscribe(during)
        scheduler.advance(by: .seconds(10))
        let after = TestSubscriber<Int, APIError>()
        flaky.subscribe(after)
        #expect(during.completion == .failure(.outage))
        #expect(after.values == [1])
        #expect(backend.count == 1)
    }

    @Test func latencyDelaysTheSubscriptionOnVirtualTime() {
        let scheduler = TestScheduler()
        let backend = Backend()
        let subscriber = TestSubscriber<Int, APIError>()
        backend.publisher.injectLatency(.seconds(3), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .milliseconds(2999))
        #expect(backend.count == 0)
        scheduler.advance(by: .milliseconds(1))
        #expect(backend.count == 1)
        #expect(subscriber.values == [1])
    }

    @Test func cancellingDuringTheLatencyNeverSubscribesTheUpstream() {
        let scheduler = TestScheduler()
        let backend = Backend()
        let subscriber = TestSubscriber<Int, APIError>()
        backend.publisher.injectLatency(.seconds(3), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        subscriber.cancel()
        scheduler.advance(by: .seconds(10))
        #expect(backend.count == 0)
        #expect(subscriber.values.isEmpty)
    }

    @Test func outcomesReplaceTheAnswer() {
        let backend = Backend()
        let value = TestSubscriber<Int, APIError>()
        backend.publisher.injectOutcome(.value(7)).subscribe(value)
        let hang = TestSubscriber<Int, APIError>()
        backend.publisher.injectOutcome(.hang).subscribe(hang)
        #expect(value.values == [7])
        #expect(value.completion == .finished)
        #expect(hang.completion == nil)
        #expect(backend.count == 0)
    }

    @Test func aHangingOutcomeMeetsTheAttemptTimeout() {
        let scheduler = TestScheduler()
        let chaos = ChaosGenerator(seed: 1)
        let backend = Backend()
        let subscriber = TestSubscriber<Int, ResilienceError<APIError>>()
        let policy = ResiliencePolicy(retry: .init(maxRetries: 5, backoff: .immediate), attemptTimeout: .seconds(2))
        // Half the calls hang: the attempt timeout turns each into a retry.
        backend.publisher.injectOutcome(.hang, rate: 0.5, using: chaos)
            .resilient(policy, scheduler: scheduler)
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(60))
        #expect(subscriber.values == [1])
        #expect(backend.count == 1)
    }

    /// The whole timeline of one dependency that is down for its first 10 seconds, seen through a
    /// retry with a budget and a breaker: when each retry came, when the circuit opened, what the
    /// budget held.
    @Test func aWholeResilienceTimeline() {
        let scheduler = TestScheduler()
        let timeline = ResilienceTimeline(scheduler: scheduler)
        let policy = ResiliencePolicy(
            retry: .init(
                maxRetries: 3, backoff: .exponential(initial: .seconds(1), multiplier: 2, jitter: .none), budget: .init()),
            circuitBreaker: .init(failureRatio: 0.5, window: .count(4), minimumThroughput: 4, breakDuration: .seconds(5)))
        let pipeline = ResiliencePipeline(policy, events: timeline.events)
        let backend = Backend()
        let outage = backend.publisher
            .injectFault(.outage, when: { scheduler.now < tenSeconds })
            .resilient(pipeline, scheduler: scheduler)
        let first = TestSubscriber<Int, ResilienceError<APIError>>()
        outage.subscribe(first)
        let second = TestSubscriber<Int, ResilienceError<APIError>>()
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(8))) {
            timeline.note("budget \(pipeline.retryBudget!.available)/500")
            outage.subscribe(second)
        }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(20))) {
            timeline.note("budget \(pipeline.retryBudget!.available)/500")
        }
        scheduler.run()
        #expect(
            timeline.entries == [
                "0 s: retry 1 in 1 s",
                "1 s: retry 2 in 2 s",
                "3 s: retry 3 in 4 s",
                "7 s: circuit open",
                "7 s: gave up after 4 attempts (exhausted)",
                "8 s: budget 485/500",
                "8 s: circuit refused (open, 4 s left)",
                "8 s: retry 1 in 4 s",
                "12 s: circuit halfOpen",
                "12 s: circuit closed",
                "20 s: budget 481/500",
            ])
        #expect(first.completion == .failure(.upstream(.outage)))
        #expect(second.values == [1])
        #expect(backend.count == 1)
    }
}
