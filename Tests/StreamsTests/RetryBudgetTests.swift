import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite("RetryBudget")
struct RetryBudgetTests {
    struct Flaky: CategorizedError, Equatable {
        var category: ErrorCategory { .retryable }
    }

    /// A publisher that counts its subscriptions and fails `failures` times before sending 1.
    final class Backend: @unchecked Sendable {
        private let subscriptions = Locked(0)
        let failures: Int
        init(failures: Int) { self.failures = failures }
        var count: Int { subscriptions.withLock { $0 } }

        var publisher: AnyPublisher<Int, Flaky> {
            Deferred { [self] () -> AnyPublisher<Int, Flaky> in
                let attempt = subscriptions.withLock {
                    $0 += 1; return $0
                }
                return attempt <= failures
                    ? Fail(error: Flaky()).eraseToAnyPublisher() : Just(1).setFailureType(to: Flaky.self).eraseToAnyPublisher()
            }.eraseToAnyPublisher()
        }
    }

    @Test func withdrawsWhilePaidAndRefillsUpToCapacity() {
        let budget = RetryBudget(capacity: 12, retryCost: 5, successRefill: 4)
        #expect(budget.available == 12)
        #expect(budget.withdrawRetry())
        #expect(budget.withdrawRetry())
        #expect(budget.available == 2)
        #expect(!budget.withdrawRetry())
        #expect(budget.available == 2)
        budget.recordSuccess()
        #expect(budget.available == 6)
        budget.recordSuccess()
        budget.recordSuccess()
        #expect(budget.available == 12)
    }

    @Test func aSharedBudgetCapsRetriesAcrossPipelines() {
        let scheduler = TestScheduler()
        let budget = RetryBudget(capacity: 10, retryCost: 5, successRefill: 1)
        let backends = [Backend(failures: 100), Backend(failures: 100)]
        let subscribers = backends.map { _ in TestSubscriber<Int, Flaky>() }
        let retried = Log<Int>()
        for (backend, subscriber) in zip(backends, subscribers) {
            backend.publisher
                .retry(
                    5, backoff: .constant(.seconds(1)), budget: budget, scheduler: scheduler,
                    onRetry: { retried.append($0.retry) }
                )
                .subscribe(subscriber)
        }
        scheduler.advance(by: .seconds(60))
        // Ten tokens pay for two retries in all; then both give up with their error.
        #expect(retried.items.count == 2)
        #expect(backends.map(\.count).reduce(0, +) == 4)
        #expect(subscribers.allSatisfy { $0.completion == .failure(Flaky()) })
        #expect(budget.available == 0)
    }

    @Test func successesRefillTheBudgetForOthers() {
        let scheduler = TestScheduler()
        let budget = RetryBudget(capacity: 5, retryCost: 5, successRefill: 5)
        let first = TestSubscriber<Int, Flaky>()
        Backend(failures: 1).publisher.retry(3, backoff: .immediate, budget: budget, scheduler: scheduler).subscribe(first)
        scheduler.advance(by: .seconds(1))
        // The retry took the five tokens; its success gave them back.
        #expect(first.values == [1])
        #expect(budget.available == 5)
        let second = TestSubscriber<Int, Flaky>()
        Backend(failures: 1).publisher.retry(3, backoff: .immediate, budget: budget, scheduler: scheduler).subscribe(second)
        scheduler.advance(by: .seconds(1))
        #expect(second.values == [1])
    }

    @Test func anAttemptCountsAsOneSuccessHoweverManyValues() {
        let scheduler = TestScheduler()
        let budget = RetryBudget(capacity: 100, retryCost: 50, successRefill: 1)
        #expect(budget.withdrawRetry())
        let subscriber = TestSubscriber<Int, Flaky>()
        [1, 2, 3].publisher.setFailureType(to: Flaky.self)
            .retry(1, backoff: .immediate, budget: budget, scheduler: scheduler)
            .subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        #expect(budget.available == 51)
    }

    @Test func anEmptyBudgetGivesUpBeforeOnRetry() {
        let scheduler = TestScheduler()
        let budget = RetryBudget(capacity: 5, retryCost: 5)
        #expect(budget.withdrawRetry())
        let backend = Backend(failures: 100)
        let retried = Log<Int>()
        let subscriber = TestSubscriber<Int, Flaky>()
        backend.publisher
            .retry(3, backoff: .immediate, budget: budget, scheduler: scheduler, onRetry: { retried.append($0.retry) })
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        #expect(retried.items.isEmpty)
        #expect(backend.count == 1)
        #expect(subscriber.completion == .failure(Flaky()))
    }

    @Test func concurrentWithdrawalsNeverOverdraw() {
        let budget = RetryBudget(capacity: 500, retryCost: 5, successRefill: 0)
        let granted = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<50 where budget.withdrawRetry() {
                granted.withLock { $0 += 1 }
            }
        }
        #expect(granted.withLock { $0 } == 100)
        #expect(budget.available == 0)
    }

    @Test func badParametersTrap() async {
        await #expect(processExitsWith: .failure) { _ = RetryBudget(capacity: 4, retryCost: 5) }
        await #expect(processExitsWith: .failure) { _ = RetryBudget(retryCost: 0) }
        await #expect(processExitsWith: .failure) { _ = RetryBudget(successRefill: -1) }
    }
}
