import Dispatch
import Foundation
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite("retry(_:when:backoff:scheduler:)")
struct SelectiveRetryTests {
    struct Flaky: CategorizedError, RetryAfterProviding, Equatable {
        var category: ErrorCategory = .retryable
        var retryAfter: Duration?
    }

    /// An upstream that records the virtual time of every subscription, sends `values`, then
    /// fails with `error(attempt)` (or finishes when that is nil).
    final class Server: @unchecked Sendable {
        let scheduler: TestScheduler
        var subscriptions: [Int64] = []
        let values: [Int]
        let error: (Int) -> Flaky?
        init(scheduler: TestScheduler, values: [Int] = [], error: @escaping (Int) -> Flaky? = { _ in Flaky() }) {
            self.scheduler = scheduler
            self.values = values
            self.error = error
        }

        var publisher: AnyPublisher<Int, Flaky> {
            Deferred { [self] () -> AnyPublisher<Int, Flaky> in
                subscriptions.append(scheduler.now.nanoseconds / 1_000_000)
                let sequence = Publishers.Sequence<[Int], Flaky>(sequence: values)
                guard let error = error(subscriptions.count) else { return sequence.eraseToAnyPublisher() }
                return sequence.append(Fail(error: error)).eraseToAnyPublisher()
            }.eraseToAnyPublisher()
        }
    }

    @Test func constantBackoffResubscribesAtFixedInstants() {
        let scheduler = TestScheduler()
        let server = Server(scheduler: scheduler)
        let subscriber = TestSubscriber<Int, Flaky>()
        server.publisher.retry(3, backoff: .constant(.seconds(1)), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(server.subscriptions == [0, 1_000, 2_000, 3_000])
        #expect(subscriber.completion == .failure(Flaky()))
        #expect(subscriber.subscriptionCount == 1)
        #expect(String(describing: subscriber.subscription!) == "SelectiveRetry")
    }

    @Test func exponentialBackoffWithoutJitter() {
        let scheduler = TestScheduler()
        let server = Server(scheduler: scheduler)
        let subscriber = TestSubscriber<Int, Flaky>()
        server.publisher
            .retry(
                4, backoff: .exponential(initial: .milliseconds(200), multiplier: 2, maxDelay: .seconds(1), jitter: .none),
                scheduler: scheduler
            )
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        // Waits of 200, 400, 800, then 1000 (capped) ms.
        #expect(server.subscriptions == [0, 200, 600, 1_400, 2_400])
    }

    @Test func aServerHintLongerThanTheBackoffWins() {
        let scheduler = TestScheduler()
        let server = Server(scheduler: scheduler, error: { _ in Flaky(retryAfter: .seconds(3)) })
        let delays = Log<Duration>()
        server.publisher
            .retry(2, backoff: .constant(.seconds(1)), scheduler: scheduler, onRetry: { delays.append($0.delay) })
            .subscribe(TestSubscriber<Int, Flaky>())
        scheduler.advance(by: .seconds(10))
        #expect(server.subscriptions == [0, 3_000, 6_000])
        #expect(delays.items == [.seconds(3), .seconds(3)])
    }

    @Test func aServerHintShorterThanTheBackoffDoesNotShortenIt() {
        let scheduler = TestScheduler()
        let server = Server(scheduler: scheduler, error: { _ in Flaky(retryAfter: .milliseconds(100)) })
        server.publisher
            .retry(1, backoff: .constant(.seconds(1)), scheduler: scheduler)
            .subscribe(TestSubscriber<Int, Flaky>())
        scheduler.advance(by: .seconds(10))
        #expect(server.subscriptions == [0, 1_000])
    }

    @Test func aHintAboveTheLimitGivesUpAtOnceWithTheErrorUnchanged() {
        let scheduler = TestScheduler()
        let error = Flaky(retryAfter: .seconds(120))
        let server = Server(scheduler: scheduler, error: { _ in error })
        let subscriber = TestSubscriber<Int, Flaky>()
        server.publisher
            .retry(5, backoff: .immediate, retryAfterLimit: .seconds(60), scheduler: scheduler)
            .subscribe(subscriber)
        #expect(subscriber.completion == .failure(error))
        scheduler.run()
        #expect(server.subscriptions == [0])
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func aHintInThePastCountsAsZero() {
        let scheduler = TestScheduler()
        let hint = RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT")
        let server = Server(scheduler: scheduler, error: { _ in Flaky(retryAfter: hint) })
        server.publisher
            .retry(1, backoff: .constant(.milliseconds(500)), scheduler: scheduler)
            .subscribe(TestSubscriber<Int, Flaky>())
        scheduler.advance(by: .seconds(10))
        #expect(server.subscriptions == [0, 500])
    }

    @Test func garbageHeadersAreNoHint() {
        let scheduler = TestScheduler()
        let server = Server(scheduler: scheduler, error: { _ in Flaky(retryAfter: RetryAfter.parse("soon")) })
        server.publisher
            .retry(1, backoff: .constant(.milliseconds(300)), scheduler: scheduler)
            .subscribe(TestSubscriber<Int, Flaky>())
        scheduler.advance(by: .seconds(10))
        #expect(server.subscriptions == [0, 300])
    }

    @Test func maxElapsedGivesUpInsteadOfSleepingPastTheDeadline() {
        let scheduler = TestScheduler()
        let server = Server(scheduler: scheduler)
        let subscriber = TestSubscriber<Int, Flaky>()
        server.publisher
            .retry(10, backoff: .constant(.seconds(2)), maxElapsed: .seconds(5), scheduler: scheduler)
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(4))
        // Attempts at 0, 2 and 4 s; a fourth would start at 6 s, past the 5 s budget.
        #expect(server.subscriptions == [0, 2_000, 4_000])
        #expect(subscriber.completion == .failure(Flaky()))
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func nonRetryableErrorsPassThroughOnTheFirstFailure() {
        let scheduler = TestScheduler()
        let server = Server(scheduler: scheduler, error: { _ in Flaky(category: .nonRetryable) })
        let subscriber = TestSubscriber<Int, Flaky>()
        server.publisher.retry(5, backoff: .immediate, scheduler: scheduler).subscribe(subscriber)
        #expect(subscriber.completion == .failure(Flaky(category: .nonRetryable)))
        #expect(server.subscriptions == [0])
    }

    @Test func aCustomPredicateChoosesTheErrors() {
        let scheduler = TestScheduler()
        let subscriber = TestSubscriber<Int, TestError>()
        var attempts = 0
        Deferred { () -> Fail<Int, TestError> in
            attempts += 1
            return Fail(error: attempts < 3 ? .oops : .other)
        }
        .retry(5, when: { $0 == .oops }, backoff: .immediate, scheduler: scheduler)
        .subscribe(subscriber)
        scheduler.run()
        #expect(attempts == 3)
        #expect(subscriber.completion == .failure(.other))
    }

    @Test func retryZeroNeverRetries() {
        let scheduler = TestScheduler()
        let server = Server(scheduler: scheduler)
        let subscriber = TestSubscriber<Int, Flaky>()
        server.publisher.retry(0, backoff: .immediate, scheduler: scheduler).subscribe(subscriber)
        scheduler.run()
        #expect(server.subscriptions == [0])
        #expect(subscriber.completion == .failure(Flaky()))
    }

    @Test func zeroWaitsStillGoThroughTheScheduler() {
        let scheduler = TestScheduler()
        let server = Server(scheduler: scheduler)
        server.publisher.retry(1, backoff: .immediate, scheduler: scheduler).subscribe(TestSubscriber<Int, Flaky>())
        #expect(server.subscriptions == [0])
        scheduler.advance()
        #expect(server.subscriptions == [0, 0])
    }

    @Test func recoversAndKeepsDeliveredValuesAndDemand() {
        let scheduler = TestScheduler()
        let server = Server(scheduler: scheduler, values: [1, 2], error: { $0 < 3 ? Flaky() : nil })
        let subscriber = TestSubscriber<Int, Flaky>(initialDemand: .max(5))
        server.publisher.retry(3, backoff: .constant(.seconds(1)), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1, 2, 1, 2])
        scheduler.advance(by: .seconds(1))
        // Only one value of demand was left for the third attempt.
        #expect(subscriber.values == [1, 2, 1, 2, 1])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 1, 2, 1, 2])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func onRetryIsToldEveryRetry() {
        let scheduler = TestScheduler()
        let server = Server(scheduler: scheduler)
        let attempts = Log<String>()
        server.publisher
            .retry(
                2, backoff: .constant(.seconds(1)), scheduler: scheduler, onRetry: { attempts.append("\($0.retry) \($0.delay)") }
            )
            .subscribe(TestSubscriber<Int, Flaky>())
        scheduler.run()
        #expect(attempts.items == ["1 1.0 seconds", "2 1.0 seconds"])
    }

    @Test func cancelWhileWaitingStopsEverything() {
        let scheduler = TestScheduler()
        let server = Server(scheduler: scheduler)
        let retries = Log<Int>()
        let predicateCalls = Log<Void>()
        weak var weakToken: Tracked?
        let subscriber = TestSubscriber<Int, Flaky>()
        do {
            let token = Tracked()
            weakToken = token
            server.publisher
                .retry(
                    5,
                    when: { _ in
                        _ = token; predicateCalls.append(()); return true
                    },
                    backoff: .constant(.seconds(1)), scheduler: scheduler,
                    onRetry: { retries.append($0.retry) }
                )
                .subscribe(subscriber)
        }
        #expect(scheduler.scheduledCount == 1)
        subscriber.cancel()
        #expect(scheduler.scheduledCount == 0)
        #expect(weakToken == nil)
        scheduler.advance(by: .seconds(100))
        #expect(server.subscriptions == [0])
        #expect(retries.items == [1])
        #expect(predicateCalls.items.count == 1)
        #expect(subscriber.completion == nil)
    }

    /// A test scheduler that counts the waits started on it (its repeating `schedule`, which
    /// the retry waits with).
    struct WaitCountingScheduler: Scheduler {
        typealias SchedulerTimeType = TestScheduler.SchedulerTimeType
        typealias SchedulerOptions = TestScheduler.SchedulerOptions

        let scheduler: TestScheduler
        let waits = Locked(0)

        var now: SchedulerTimeType { scheduler.now }
        var minimumTolerance: SchedulerTimeType.Stride { scheduler.minimumTolerance }

        func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
            scheduler.schedule(options: options, action)
        }

        func schedule(
            after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
            _ action: @escaping () -> Void
        ) {
            scheduler.schedule(after: date, tolerance: tolerance, options: options, action)
        }

        func schedule(
            after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
            options: SchedulerOptions?, _ action: @escaping () -> Void
        ) -> any Cancellable {
            waits.withLock { $0 += 1 }
            return scheduler.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
        }
    }

    @Test func cancellingInsideWhenTakesNoBudgetTokenAndCallsNothingMore() {
        let scheduler = TestScheduler()
        let server = Server(scheduler: scheduler)
        let budget = RetryBudget(capacity: 10, retryCost: 1, successRefill: 0)
        let retries = Log<Int>()
        let subscriber = TestSubscriber<Int, Flaky>()
        server.publisher
            .retry(
                5,
                when: { _ in
                    subscriber.cancel()
                    return true
                },
                backoff: .constant(.seconds(1)), budget: budget, scheduler: scheduler,
                onRetry: { retries.append($0.retry) }
            )
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(budget.available == 10)
        #expect(retries.items.isEmpty)
        #expect(scheduler.scheduledCount == 0)
        #expect(server.subscriptions == [0])
        #expect(subscriber.completion == nil)
    }

    @Test func cancellingInsideOnRetryStartsNoWait() {
        let scheduler = WaitCountingScheduler(scheduler: TestScheduler())
        let server = Server(scheduler: scheduler.scheduler)
        let retries = Log<Int>()
        let subscriber = TestSubscriber<Int, Flaky>()
        server.publisher
            .retry(
                5, backoff: .constant(.seconds(1)), scheduler: scheduler,
                onRetry: { attempt in
                    retries.append(attempt.retry)
                    if attempt.retry == 2 { subscriber.cancel() }
                }
            )
            .subscribe(subscriber)
        scheduler.scheduler.advance(by: .seconds(10))
        #expect(retries.items == [1, 2])
        #expect(scheduler.waits.withLock { $0 } == 1)
        #expect(server.subscriptions == [0, 1_000])
        #expect(subscriber.completion == nil)
    }

    /// A seeded generator that calls `onDraw` before each number it draws.
    struct ObservedGenerator: RandomNumberGenerator, Sendable {
        var seeded = SeededRandomNumberGenerator(seed: 1)
        let onDraw: @Sendable () -> Void

        mutating func next() -> UInt64 {
            onDraw()
            return seeded.next()
        }
    }

    @Test func aBudgetTokenTakenForARetryCancelledMeanwhileIsGivenBack() {
        // The cancel comes after `when` has answered, while the wait is being worked out (here
        // from inside the jitter's generator, where another thread's cancel could land too).
        let scheduler = TestScheduler()
        let server = Server(scheduler: scheduler)
        let budget = RetryBudget(capacity: 10, retryCost: 1, successRefill: 0)
        let retries = Log<Int>()
        let subscriber = TestSubscriber<Int, Flaky>()
        server.publisher
            .retry(
                5, backoff: .exponential(initial: .seconds(1)), budget: budget, scheduler: scheduler,
                random: ObservedGenerator(onDraw: { subscriber.cancel() }),
                onRetry: { retries.append($0.retry) }
            )
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(budget.available == 10)
        #expect(retries.items.isEmpty)
        #expect(server.subscriptions == [0])
        #expect(subscriber.completion == nil)
    }

    @Test func jitterIsReproducibleWithASeededGenerator() {
        func instants(seed: UInt64) -> [Int64] {
            let scheduler = TestScheduler()
            let server = Server(scheduler: scheduler)
            server.publisher
                .retry(
                    5, backoff: .exponential(initial: .milliseconds(100), jitter: .full), scheduler: scheduler,
                    random: SeededRandomNumberGenerator(seed: seed)
                )
                .subscribe(TestSubscriber<Int, Flaky>())
            scheduler.run()
            return server.subscriptions
        }
        #expect(instants(seed: 3) == instants(seed: 3))
        #expect(instants(seed: 3).count == 6)
    }

    @Test func aSynchronouslyFailingUpstreamOnAnImmediateSchedulerDoesNotGrowTheStack() {
        var attempts = 0
        let subscriber = TestSubscriber<Int, Flaky>()
        Deferred { () -> Fail<Int, Flaky> in
            attempts += 1
            return Fail(error: Flaky())
        }
        .retry(20_000, backoff: .immediate, scheduler: ImmediateScheduler.shared)
        .subscribe(subscriber)
        #expect(attempts == 20_001)
        #expect(subscriber.completion == .failure(Flaky()))
    }

    @Test func manyRetriesOnTheTestScheduler() {
        let scheduler = TestScheduler()
        var attempts = 0
        let subscriber = TestSubscriber<Int, Flaky>()
        Deferred { () -> Fail<Int, Flaky> in
            attempts += 1
            return Fail(error: Flaky())
        }
        .retry(10_000, backoff: .immediate, scheduler: scheduler)
        .subscribe(subscriber)
        scheduler.run()
        #expect(attempts == 10_001)
        #expect(subscriber.completion == .failure(Flaky()))
    }

    @Test func upstreamFailingOnOtherThreads() {
        let attempts = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        let completions = Atomic<Int>(0)
        let cancellable = Deferred { () -> Future<Int, Flaky> in
            attempts.add(1, ordering: .relaxed)
            return Future { promise in
                DispatchQueue.global().async { promise(.failure(Flaky())) }
            }
        }
        .retry(50, backoff: .immediate, scheduler: DispatchQueue(label: "retry"))
        .sink(
            receiveCompletion: { _ in
                completions.add(1, ordering: .relaxed)
                done.signal()
            }, receiveValue: { _ in })
        #expect(done.wait(timeout: .now() + .seconds(30)) == .success)
        #expect(attempts.load(ordering: .relaxed) == 51)
        #expect(completions.load(ordering: .relaxed) == 1)
        cancellable.cancel()
    }

    @Test func aPendingRetryKeepsThePipelineAliveUntilItRuns() {
        let scheduler = TestScheduler()
        var attempts = 0
        let events = Log<String>()
        Deferred { () -> AnyPublisher<Int, TestError> in
            attempts += 1
            return attempts == 1
                ? Fail(error: .oops).eraseToAnyPublisher() : Just(7).setFailureType(to: TestError.self).eraseToAnyPublisher()
        }
        .retry(1, when: { _ in true }, backoff: .constant(.seconds(1)), scheduler: scheduler)
        .subscribe(ForgetfulSubscriber<Int, TestError>(events: events))
        // Only the scheduled retry holds the pipeline now.
        #expect(scheduler.scheduledCount == 1)
        scheduler.advance(by: .seconds(1))
        #expect(attempts == 2)
        #expect(events.items == ["7", "finished"])
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func aPendingRetryOnADispatchQueueKeepsThePipelineAliveUntilItRuns() {
        let done = DispatchSemaphore(value: 0)
        let attempts = Atomic<Int>(0)
        let events = Log<String>()
        Deferred { () -> AnyPublisher<Int, TestError> in
            attempts.add(1, ordering: .relaxed) == (oldValue: 0, newValue: 1)
                ? Fail(error: .oops).eraseToAnyPublisher() : Just(7).setFailureType(to: TestError.self).eraseToAnyPublisher()
        }
        .retry(1, when: { _ in true }, backoff: .constant(.milliseconds(5)), scheduler: DispatchQueue(label: "retry-lifetime"))
        .subscribe(ForgetfulSubscriber<Int, TestError>(events: events, onCompletion: { done.signal() }))
        #expect(done.wait(timeout: .now() + .seconds(30)) == .success)
        #expect(attempts.load(ordering: .relaxed) == 2)
        #expect(events.items == ["7", "finished"])
    }

    @Test func theClosuresAreLetGoAfterGivingUp() {
        let scheduler = TestScheduler()
        weak var weakToken: Tracked?
        let subscriber = TestSubscriber<Int, TestError>()
        do {
            let token = Tracked()
            weakToken = token
            Fail<Int, TestError>(error: .oops)
                .retry(
                    1,
                    when: { _ in
                        _ = token; return true
                    }, backoff: .constant(.seconds(1)), scheduler: scheduler,
                    onRetry: { _ in _ = token }
                )
                .subscribe(subscriber)
        }
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.completion == .failure(.oops))
        #expect(weakToken == nil)
    }

    @Test func negativeRetryCountTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Just(1).setFailureType(to: TestError.self).retry(-1, backoff: .immediate, scheduler: ImmediateScheduler.shared)
        }
    }
}
