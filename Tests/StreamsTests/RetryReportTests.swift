import Foundation
import Streams
import StreamsExt
import StreamsResilience
import StreamsTesting
import Testing

@Suite("retry: transient reset, timeout cost, give-up reports and attempt events")
struct RetryReportTests {
    struct Flaky: CategorizedError, RetryAfterProviding, Equatable {
        var attempt = 0
        var category: ErrorCategory = .retryable
        var retryAfter: Duration?
    }

    /// An upstream whose attempt `n` sends `values(n)` values, then fails with `Flaky(attempt: n)`
    /// (or finishes when `finishes(n)`); it records when each attempt started.
    final class Stream: @unchecked Sendable {
        let scheduler: TestScheduler
        let values: (Int) -> Int
        let finishes: (Int) -> Bool
        let error: (Int) -> Flaky
        private(set) var starts: [Int64] = []

        init(
            scheduler: TestScheduler, values: @escaping (Int) -> Int = { _ in 0 },
            finishes: @escaping (Int) -> Bool = { _ in false },
            error: @escaping (Int) -> Flaky = { Flaky(attempt: $0) }
        ) {
            self.scheduler = scheduler
            self.values = values
            self.finishes = finishes
            self.error = error
        }

        var publisher: AnyPublisher<Int, Flaky> {
            Deferred { [self] () -> AnyPublisher<Int, Flaky> in
                starts.append(scheduler.now.nanoseconds / 1_000_000_000)
                let attempt = starts.count
                let sent = Publishers.Sequence<[Int], Flaky>(sequence: Array(repeating: attempt, count: values(attempt)))
                if finishes(attempt) { return sent.eraseToAnyPublisher() }
                return sent.append(Fail(error: error(attempt))).eraseToAnyPublisher()
            }.eraseToAnyPublisher()
        }
    }

    /// Records the reports and the retries' numbers.
    final class Reports: @unchecked Sendable {
        private let state = Locked<(reports: [RetryReport<Flaky>], retries: [Int])>(([], []))
        var reports: [RetryReport<Flaky>] { state.withLock { $0.reports } }
        var retries: [Int] { state.withLock { $0.retries } }
        func onGiveUp(_ report: RetryReport<Flaky>) { state.withLock { $0.reports.append(report) } }
        func onRetry(_ attempt: RetryAttempt<Flaky>) { state.withLock { $0.retries.append(attempt.retry) } }
    }

    // MARK: transient

    @Test func aValueStartsTheCountAndTheBackoffAgainWhenTransient() {
        let scheduler = TestScheduler()
        // Attempts 1 and 3 send a value before failing; attempt 6 finishes.
        let stream = Stream(scheduler: scheduler, values: { $0 == 1 || $0 == 3 ? 1 : 0 }, finishes: { $0 == 6 })
        let reports = Reports()
        let subscriber = TestSubscriber<Int, Flaky>()
        stream.publisher
            .retry(
                2, backoff: .exponential(initial: .seconds(1), multiplier: 2, maxDelay: .seconds(60), jitter: .none),
                transient: true, scheduler: scheduler, onRetry: reports.onRetry
            )
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(60))
        #expect(reports.retries == [1, 2, 1, 2])
        #expect(stream.starts == [0, 1, 3, 4, 6])
        #expect(subscriber.values == [1, 3])
        #expect(subscriber.failure == Flaky(attempt: 5))
    }

    @Test func withoutTransientTheCountRunsAcrossValues() {
        let scheduler = TestScheduler()
        let stream = Stream(scheduler: scheduler, values: { $0 == 1 || $0 == 3 ? 1 : 0 })
        let reports = Reports()
        let subscriber = TestSubscriber<Int, Flaky>()
        stream.publisher
            .retry(2, backoff: .constant(.seconds(1)), scheduler: scheduler, onRetry: reports.onRetry)
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(60))
        #expect(reports.retries == [1, 2])
        #expect(subscriber.failure == Flaky(attempt: 3))
    }

    @Test func transientRestartsMaxElapsedFromTheValue() {
        let scheduler = TestScheduler()
        // Attempt 3 sends a value at 10 s; without the restart, maxElapsed (15 s) would stop the
        // retry after attempt 4.
        let stream = Stream(scheduler: scheduler, values: { $0 == 3 ? 1 : 0 }, finishes: { $0 == 5 })
        let subscriber = TestSubscriber<Int, Flaky>()
        stream.publisher
            .retry(5, backoff: .constant(.seconds(5)), maxElapsed: .seconds(15), transient: true, scheduler: scheduler)
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(60))
        #expect(stream.starts == [0, 5, 10, 15, 20])
        #expect(subscriber.completion == .finished)
    }

    // MARK: timeout cost

    @Test func aRetryAfterATimeoutCostsTheTimeoutCost() {
        let budget = RetryBudget(capacity: 500, retryCost: 5, timeoutCost: 10, successRefill: 1)
        #expect(budget.cost(after: Flaky()) == 5)
        #expect(budget.cost(after: AttemptTimeoutError(timeout: .seconds(1))) == 10)
        #expect(budget.cost(after: ResilienceError<Flaky>.attemptTimedOut(AttemptTimeoutError(timeout: .seconds(1)))) == 10)
        #expect(budget.cost(after: ResilienceError<URLError>.upstream(URLError(.timedOut))) == 10)
        #expect(budget.cost(after: URLError(.cannotConnectToHost)) == 5)
        #expect(budget.withdrawRetry(after: DeadlineExceededError(deadline: .seconds(1))))
        #expect(budget.available == 490)
        #expect(RetryBudget(retryCost: 7).timeoutCost == 14)
    }

    @Test func timedOutAttemptsSpendTheBudgetTwiceAsFast() {
        let scheduler = TestScheduler()
        let budget = RetryBudget(capacity: 25, retryCost: 5)
        let reports = Reports()
        let subscriber = TestSubscriber<Int, ResilienceError<Flaky>>()
        var reported: [RetryReport<ResilienceError<Flaky>>] = []
        Empty<Int, Flaky>(completeImmediately: false)
            .attemptTimeout(.seconds(1), scheduler: scheduler)
            .retry(
                10, backoff: .immediate, budget: budget, scheduler: scheduler,
                onRetry: { reports.onRetry(RetryAttempt(retry: $0.retry, error: Flaky(), delay: $0.delay)) },
                onGiveUp: { reported.append($0) }
            )
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(60))
        #expect(reports.retries == [1, 2])
        #expect(budget.available == 5)
        #expect(reported.map(\.reason) == [.budgetEmpty])
        #expect(reported.map(\.attempts) == [3])
        #expect(subscriber.failure == .attemptTimedOut(AttemptTimeoutError(timeout: .seconds(1))))
    }

    // MARK: give-up reasons

    /// Runs `stream` through a retry built by `retry`, and returns the report and what was
    /// delivered.
    func giveUp(
        _ stream: Stream, _ scheduler: TestScheduler,
        _ retry: (AnyPublisher<Int, Flaky>, @escaping (RetryReport<Flaky>) -> Void) -> AnyPublisher<Int, Flaky>
    ) -> (reports: [RetryReport<Flaky>], delivered: Flaky?) {
        let reports = Reports()
        let subscriber = TestSubscriber<Int, Flaky>()
        retry(stream.publisher, reports.onGiveUp).subscribe(subscriber)
        scheduler.advance(by: .seconds(600))
        return (reports.reports, subscriber.failure)
    }

    @Test func aNonRetryableErrorIsReportedAsSuch() {
        let scheduler = TestScheduler()
        let stream = Stream(scheduler: scheduler, error: { Flaky(attempt: $0, category: .nonRetryable) })
        let (reports, delivered) = giveUp(stream, scheduler) {
            $0.retry(3, backoff: .immediate, scheduler: scheduler, onGiveUp: $1).eraseToAnyPublisher()
        }
        #expect(reports.map(\.reason) == [.notRetryable])
        #expect(reports.map(\.attempts) == [1])
        #expect(delivered == Flaky(attempt: 1, category: .nonRetryable))
        #expect(reports.first?.error == delivered)
    }

    @Test func exhaustedRetriesAreReported() {
        let scheduler = TestScheduler()
        let (reports, delivered) = giveUp(Stream(scheduler: scheduler), scheduler) {
            $0.retry(2, backoff: .constant(.seconds(1)), scheduler: scheduler, onGiveUp: $1).eraseToAnyPublisher()
        }
        #expect(reports.map(\.reason) == [.exhausted])
        #expect(reports.map(\.attempts) == [3])
        #expect(delivered == Flaky(attempt: 3))
    }

    @Test func maxElapsedIsReportedAsTheDeadline() {
        let scheduler = TestScheduler()
        let (reports, delivered) = giveUp(Stream(scheduler: scheduler), scheduler) {
            $0.retry(9, backoff: .constant(.seconds(4)), maxElapsed: .seconds(10), scheduler: scheduler, onGiveUp: $1)
                .eraseToAnyPublisher()
        }
        #expect(reports.map(\.reason) == [.deadline])
        #expect(delivered == Flaky(attempt: 3))
    }

    @Test func aHintOverTheLimitIsReported() {
        let scheduler = TestScheduler()
        let stream = Stream(scheduler: scheduler, error: { Flaky(attempt: $0, retryAfter: .seconds(120)) })
        let (reports, delivered) = giveUp(stream, scheduler) {
            $0.retry(3, backoff: .immediate, scheduler: scheduler, onGiveUp: $1).eraseToAnyPublisher()
        }
        #expect(reports.map(\.reason) == [.retryAfterOverLimit])
        #expect(delivered == Flaky(attempt: 1, retryAfter: .seconds(120)))
    }

    @Test func anEmptyBudgetIsReported() {
        let scheduler = TestScheduler()
        let budget = RetryBudget(capacity: 5, retryCost: 5)
        let (reports, delivered) = giveUp(Stream(scheduler: scheduler), scheduler) {
            $0.retry(3, backoff: .immediate, budget: budget, scheduler: scheduler, onGiveUp: $1).eraseToAnyPublisher()
        }
        #expect(reports.map(\.reason) == [.budgetEmpty])
        #expect(reports.map(\.attempts) == [2])
        #expect(delivered == Flaky(attempt: 2))
    }

    @Test func anOpenCircuitIsReportedAsSuch() {
        let scheduler = TestScheduler()
        let breaker = CircuitBreaker()
        breaker.isolate()
        var reports: [RetryReport<ResilienceError<Flaky>>] = []
        let subscriber = TestSubscriber<Int, ResilienceError<Flaky>>()
        Stream(scheduler: scheduler).publisher
            .circuitBreaker(breaker, scheduler: scheduler)
            .retry(3, backoff: .immediate, scheduler: scheduler, onGiveUp: { reports.append($0) })
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(reports.map(\.reason) == [.circuitOpen])
        #expect(subscriber.failure == .circuitOpen(CircuitOpenError(state: .isolated, retryAfter: nil)))
    }

    @Test func anOpenCircuitWhoseBreakIsOverTheLimitIsReportedAsSuch() {
        let scheduler = TestScheduler()
        let breaker = CircuitBreaker(
            .init(failureRatio: 1, window: .count(10), minimumThroughput: 1, breakDuration: .seconds(120)))
        var reports: [RetryReport<ResilienceError<Flaky>>] = []
        let subscriber = TestSubscriber<Int, ResilienceError<Flaky>>()
        Stream(scheduler: scheduler).publisher
            .circuitBreaker(breaker, scheduler: scheduler)
            .retry(
                3, backoff: .immediate, retryAfterLimit: .seconds(30), scheduler: scheduler, onGiveUp: { reports.append($0) }
            )
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(600))
        // The first failure opens the circuit for 120 s; the retry's attempt is refused with
        // that hint, longer than the 30 s limit: a refusal, not a server's hint over the limit.
        #expect(reports.map(\.reason) == [.circuitOpen])
        #expect(reports.map(\.attempts) == [2])
        #expect(subscriber.failure == .circuitOpen(CircuitOpenError(state: .open, retryAfter: .seconds(120))))
    }

    @Test func aFinishedStreamReportsNothing() {
        let scheduler = TestScheduler()
        let (reports, delivered) = giveUp(Stream(scheduler: scheduler, finishes: { $0 == 2 }), scheduler) {
            $0.retry(3, backoff: .immediate, scheduler: scheduler, onGiveUp: $1).eraseToAnyPublisher()
        }
        #expect(reports.isEmpty)
        #expect(delivered == nil)
    }

    // MARK: events

    @Test func cancellingFromAnAttemptEventStopsTheRetryBeforeItsPredicate() {
        let scheduler = TestScheduler()
        let stream = Stream(scheduler: scheduler)
        let subscriber = TestSubscriber<Int, Flaky>()
        let asked = Locked(0)
        let events = ResilienceEvents { event in
            if case .attemptEnded = event { subscriber.cancel() }
        }
        stream.publisher
            .retry(
                3,
                when: { _ in
                    asked.withLock { $0 += 1 }
                    return true
                }, backoff: .immediate, scheduler: scheduler, events: events
            )
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(asked.withLock { $0 } == 0)
        #expect(stream.starts == [0])
        #expect(subscriber.completion == nil)
    }

    @Test func cancellingFromTheAttemptStartedEventMakesNoSubscription() {
        let scheduler = TestScheduler()
        let stream = Stream(scheduler: scheduler)
        let subscriber = TestSubscriber<Int, Flaky>()
        let events = ResilienceEvents { event in
            if case .attemptStarted(2) = event { subscriber.cancel() }
        }
        stream.publisher.retry(3, backoff: .constant(.seconds(1)), scheduler: scheduler, events: events).subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(stream.starts == [0])
    }
}
