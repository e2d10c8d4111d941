import Streams
import StreamsResilience
import StreamsTesting
import Testing

@Suite("hedge(maxAttempts:delay:when:budget:breaker:scheduler:events:)")
struct HedgeTests {
    /// A failure that names its attempt; `fatal` ones are not retryable.
    struct AttemptError: CategorizedError, Equatable {
        let attempt: Int
        var fatal = false
        var category: ErrorCategory { fatal ? .nonRetryable : .retryable }
    }

    /// An object whose release a test watches.
    final class Witness: Sendable {}

    /// What attempt `n` of a ``Replica`` does.
    enum Reply {
        /// Sends its attempt number and finishes, after the delay.
        case valueAfter(VirtualTime.Stride)
        /// Fails after the delay.
        case failAfter(VirtualTime.Stride, fatal: Bool = false)
        /// Finishes without a value, after the delay.
        case finishAfter(VirtualTime.Stride)
        /// Never answers.
        case hang
    }

    /// A backend that answers its `n`-th subscription with `replies[n - 1]` (the last one once
    /// they are used up), and records when each subscription came and which were cancelled.
    final class Replica: @unchecked Sendable {
        let scheduler: TestScheduler
        let replies: [Reply]
        private let state = Locked<(calls: [VirtualTime], cancelled: [Int])>(([], []))

        init(_ replies: [Reply], scheduler: TestScheduler) {
            self.replies = replies
            self.scheduler = scheduler
        }

        var callTimes: [VirtualTime] { state.withLock { $0.calls } }
        var cancelled: [Int] { state.withLock { $0.cancelled } }

        var publisher: AnyPublisher<Int, AttemptError> {
            Deferred { [self] () -> AnyPublisher<Int, AttemptError> in
                let attempt = state.withLock {
                    $0.calls.append(scheduler.now)
                    return $0.calls.count
                }
                let reply: AnyPublisher<Int, AttemptError>
                switch replies[min(attempt, replies.count) - 1] {
                case .valueAfter(let delay):
                    reply = Just(attempt).setFailureType(to: AttemptError.self).delay(for: delay, scheduler: scheduler)
                        .eraseToAnyPublisher()
                case .failAfter(let delay, let fatal):
                    reply = Fail(error: AttemptError(attempt: attempt, fatal: fatal)).delay(for: delay, scheduler: scheduler)
                        .eraseToAnyPublisher()
                case .finishAfter(let delay):
                    reply = Empty().delay(for: delay, scheduler: scheduler).eraseToAnyPublisher()
                case .hang:
                    reply = Empty(completeImmediately: false).eraseToAnyPublisher()
                }
                return reply.handleEvents(receiveCancel: { [self] in state.withLock { $0.cancelled.append(attempt) } })
                    .eraseToAnyPublisher()
            }.eraseToAnyPublisher()
        }
    }

    @Test func aSlowAttemptIsHedgedAfterTheDelayAndTheFirstValueWins() {
        let scheduler = TestScheduler()
        let replica = Replica([.valueAfter(.seconds(5)), .valueAfter(.seconds(1))], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, AttemptError>()
        replica.publisher.hedge(scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(2))
        #expect(replica.callTimes == [.seconds(0), .seconds(2)])
        #expect(subscriber.values.isEmpty)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [2])
        #expect(subscriber.completion == .finished)
        #expect(replica.cancelled == [1])
        scheduler.advance(by: .seconds(10))
        #expect(subscriber.values == [2])
        #expect(subscriber.subscriptionCount == 1)
        #expect(String(describing: subscriber.subscription!) == "Hedge")
    }

    @Test func anAttemptFasterThanTheDelayIsNeverHedged() {
        let scheduler = TestScheduler()
        let replica = Replica([.valueAfter(.seconds(1))], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, AttemptError>()
        replica.publisher.hedge(scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(replica.callTimes == [.seconds(0)])
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .finished)
    }

    @Test func theFirstAttemptMayStillWinAfterAHedgeStarted() {
        let scheduler = TestScheduler()
        let replica = Replica([.valueAfter(.seconds(3)), .valueAfter(.seconds(5))], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, AttemptError>()
        replica.publisher.hedge(scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(replica.callTimes == [.seconds(0), .seconds(2)])
        #expect(subscriber.values == [1])
        #expect(replica.cancelled == [2])
    }

    @Test func atMostMaxAttemptsAreMadeEachADelayAfterThePrevious() {
        let scheduler = TestScheduler()
        let replica = Replica([.hang], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, AttemptError>()
        replica.publisher.hedge(maxAttempts: 3, delay: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(60))
        #expect(replica.callTimes == [.seconds(0), .seconds(1), .seconds(2)])
        #expect(subscriber.values.isEmpty && subscriber.completion == nil)
        subscriber.cancel()
        #expect(replica.cancelled == [1, 2, 3])
    }

    @Test func aNonFatalFailureStartsTheNextAttemptAtOnce() {
        let scheduler = TestScheduler()
        let replica = Replica(
            [.failAfter(.seconds(1)), .failAfter(.zero), .valueAfter(.seconds(1))], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, AttemptError>()
        replica.publisher.hedge(maxAttempts: 3, delay: .seconds(10), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(60))
        #expect(replica.callTimes == [.seconds(0), .seconds(1), .seconds(1)])
        #expect(subscriber.values == [3])
        #expect(subscriber.completion == .finished)
    }

    @Test func aFatalFailureEndsTheStreamAndCancelsTheOtherAttempts() {
        let scheduler = TestScheduler()
        let replica = Replica([.hang, .failAfter(.seconds(1), fatal: true)], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, AttemptError>()
        replica.publisher.hedge(maxAttempts: 3, delay: .seconds(2), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(60))
        #expect(replica.callTimes == [.seconds(0), .seconds(2)])
        #expect(subscriber.failure == AttemptError(attempt: 2, fatal: true))
        #expect(replica.cancelled == [1])
    }

    @Test func whenEveryAttemptFailsTheLastFailureIsDelivered() {
        let scheduler = TestScheduler()
        let replica = Replica(
            [.failAfter(.seconds(5)), .failAfter(.seconds(1)), .failAfter(.seconds(1))], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, AttemptError>()
        replica.publisher.hedge(maxAttempts: 3, delay: .seconds(2), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(4))
        // Attempt 2 failed at 3 s and attempt 3 started at once; it fails at 4 s, attempt 1 at 5 s.
        #expect(replica.callTimes == [.seconds(0), .seconds(2), .seconds(3)])
        #expect(subscriber.completion == nil)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.failure == AttemptError(attempt: 1))
    }

    @Test func anAttemptThatFinishesWithoutAValueWins() {
        let scheduler = TestScheduler()
        let replica = Replica([.hang, .finishAfter(.seconds(1))], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, AttemptError>()
        replica.publisher.hedge(delay: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == .finished)
        #expect(replica.cancelled == [1])
    }

    @Test func theWinnersValueWaitsForDemand() {
        let scheduler = TestScheduler()
        let replica = Replica([.hang, .valueAfter(.zero)], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, AttemptError>(initialDemand: nil)
        replica.publisher.hedge(delay: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(replica.cancelled == [1])
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.values == [2])
        #expect(subscriber.completion == .finished)
    }

    @Test func eachHedgeDrawsFromTheBudgetAndAnEmptyBudgetStopsThem() {
        let scheduler = TestScheduler()
        let budget = RetryBudget(capacity: 5, retryCost: 5, successRefill: 1)
        let replica = Replica([.hang, .hang, .valueAfter(.seconds(30))], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, AttemptError>()
        replica.publisher.hedge(maxAttempts: 3, delay: .seconds(1), budget: budget, scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(60))
        #expect(replica.callTimes == [.seconds(0), .seconds(1)])
        #expect(budget.available == 0)
        subscriber.cancel()
    }

    @Test func theWinnerRefillsTheBudget() {
        let scheduler = TestScheduler()
        let budget = RetryBudget(capacity: 10, retryCost: 5, successRefill: 2)
        let replica = Replica([.hang, .valueAfter(.seconds(1))], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, AttemptError>()
        replica.publisher.hedge(delay: .seconds(1), budget: budget, scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(subscriber.values == [2])
        #expect(budget.available == 7)
    }

    @Test func aBreakerThatIsNotClosedStopsNewHedges() {
        let scheduler = TestScheduler()
        let breaker = CircuitBreaker()
        breaker.isolate()
        let replica = Replica([.hang], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, AttemptError>()
        replica.publisher.hedge(maxAttempts: 3, delay: .seconds(1), breaker: breaker, scheduler: scheduler).subscribe(
            subscriber)
        scheduler.advance(by: .seconds(60))
        #expect(replica.callTimes == [.seconds(0)])
        breaker.reset()
        subscriber.cancel()
    }

    @Test func aRefusedHedgeAfterTheLastFailureDeliversIt() {
        let scheduler = TestScheduler()
        let budget = RetryBudget(capacity: 5, retryCost: 5)
        #expect(budget.withdrawRetry())
        let replica = Replica([.failAfter(.seconds(1))], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, AttemptError>()
        replica.publisher.hedge(maxAttempts: 3, budget: budget, scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        #expect(replica.callTimes == [.seconds(0)])
        #expect(subscriber.failure == AttemptError(attempt: 1))
    }

    @Test func cancellingCancelsEveryAttemptAndTheDelayAndReleasesTheClosure() {
        let scheduler = TestScheduler()
        let replica = Replica([.hang], scheduler: scheduler)
        weak var weakWitness: Witness?
        let subscriber = TestSubscriber<Int, AttemptError>()
        do {
            let witness = Witness()
            weakWitness = witness
            replica.publisher.hedge(
                maxAttempts: 3, delay: .seconds(1),
                when: { _ in
                    _ = witness; return true
                }, scheduler: scheduler
            ).subscribe(subscriber)
        }
        scheduler.advance(by: .seconds(1))
        subscriber.cancel()
        #expect(replica.cancelled == [1, 2])
        #expect(weakWitness == nil)
        scheduler.advance(by: .seconds(60))
        #expect(replica.callTimes == [.seconds(0), .seconds(1)])
        #expect(subscriber.values.isEmpty && subscriber.completion == nil)
    }

    @Test func cancellingFromTheHedgeEventMakesNoAttempt() {
        let scheduler = TestScheduler()
        let replica = Replica([.hang], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, AttemptError>()
        let events = ResilienceEvents { _ in subscriber.cancel() }
        replica.publisher.hedge(delay: .seconds(1), scheduler: scheduler, events: events).subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(replica.callTimes == [.seconds(0)])
        #expect(replica.cancelled == [1])
    }

    @Test func aZeroDelayStartsEveryAttemptAtOnce() {
        let scheduler = TestScheduler()
        let replica = Replica(
            [.valueAfter(.seconds(3)), .valueAfter(.seconds(2)), .valueAfter(.seconds(1))], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, AttemptError>()
        replica.publisher.hedge(maxAttempts: 3, delay: .zero, scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(replica.callTimes == [.seconds(0), .seconds(0), .seconds(0)])
        #expect(subscriber.values == [3])
        #expect(replica.cancelled.sorted() == [1, 2])
    }

    @Test func theDefaultsAreOneExtraAttemptAfterTwoSeconds() {
        let hedge = Just(1).hedge(scheduler: TestScheduler())
        #expect(hedge.maxAttempts == 2)
        #expect(hedge.delay == .seconds(2))
        #expect(hedge.budget == nil && hedge.breaker == nil)
    }

    @Test func aValueFromASynchronousUpstreamWinsAtOnce() {
        let scheduler = TestScheduler()
        let subscriber = TestSubscriber<Int, Never>()
        Just(7).hedge(scheduler: scheduler).subscribe(subscriber)
        #expect(subscriber.values == [7])
        #expect(subscriber.completion == .finished)
    }

    @Test func fewerThanOneAttemptIsAPreconditionFailure() async {
        await #expect(processExitsWith: .failure) {
            _ = Just(1).hedge(maxAttempts: 0, scheduler: ImmediateScheduler.shared)
        }
    }
}
