import Streams
import StreamsTesting
import Testing

/// The selective retry deciding on values as well as errors, on virtual time.
@Suite("retry(_:whenOutcome:backoff:scheduler:)")
struct OutcomeRetryTests {
    enum Outage: Error, Equatable { case down, badRequest }

    /// What one subscription sends: its values, then `.finished` or the failure.
    struct Attempt {
        var values: [Int]
        var failure: Outage?
    }

    /// An upstream that answers each subscription with the next attempt of its script (the last
    /// once the script is used up) and records the virtual time of each subscription, in ms.
    final class Server: @unchecked Sendable {
        let scheduler: TestScheduler
        let script: [Attempt]
        var subscriptions: [Int64] = []

        init(_ script: [Attempt], scheduler: TestScheduler) {
            self.script = script
            self.scheduler = scheduler
        }

        var publisher: AnyPublisher<Int, Outage> {
            Deferred { [self] () -> AnyPublisher<Int, Outage> in
                subscriptions.append(scheduler.now.nanoseconds / 1_000_000)
                let attempt = script[min(subscriptions.count, script.count) - 1]
                let values = Publishers.Sequence<[Int], Outage>(sequence: attempt.values)
                guard let failure = attempt.failure else { return values.eraseToAnyPublisher() }
                return values.append(Fail(error: failure)).eraseToAnyPublisher()
            }.eraseToAnyPublisher()
        }
    }

    /// A negative value is a reply whose body says "error"; `.down` is worth retrying.
    static func handles(_ outcome: AttemptOutcome<Int, Outage>) -> Bool {
        switch outcome {
        case .value(let value): value < 0
        case .failure(let error): error == .down
        }
    }

    @Test func aHandledValueIsRetriedLikeAFailureAndNotDelivered() {
        let scheduler = TestScheduler()
        let server = Server(
            [Attempt(values: [-1]), Attempt(values: [], failure: .down), Attempt(values: [7])], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, Outage>()
        server.publisher
            .retry(3, whenOutcome: Self.handles, backoff: .constant(.seconds(1)), scheduler: scheduler)
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(server.subscriptions == [0, 1_000, 2_000])
        #expect(subscriber.values == [7])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func whenTheRetriesRunOutTheLastValueIsDeliveredNotAnError() {
        let scheduler = TestScheduler()
        let server = Server([Attempt(values: [-1])], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, Outage>()
        let reports = Log<String>()
        server.publisher
            .retry(
                2, whenOutcome: Self.handles, backoff: .constant(.seconds(1)), scheduler: scheduler,
                onRetry: { reports.append("retry \($0.retry) after \($0.error)") },
                onGiveUp: { reports.append("\($0.reason) after \($0.attempts): \($0.error.value.map(String.init) ?? "-")") }
            )
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(server.subscriptions == [0, 1_000, 2_000])
        #expect(subscriber.values == [-1])
        #expect(subscriber.completion == .finished)
        #expect(reports.items == ["retry 1 after value(Int)", "retry 2 after value(Int)", "exhausted after 3: -1"])
    }

    @Test func aFailureTheClosureDoesNotHandleIsDeliveredAtOnce() {
        let scheduler = TestScheduler()
        let server = Server([Attempt(values: [], failure: .badRequest), Attempt(values: [7])], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, Outage>()
        server.publisher
            .retry(3, whenOutcome: Self.handles, backoff: .constant(.seconds(1)), scheduler: scheduler)
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(server.subscriptions == [0])
        #expect(subscriber.completion == .failure(.badRequest))
    }

    @Test func valuesBeforeTheHandledOneAreDeliveredAndTheUpstreamIsLeft() {
        let scheduler = TestScheduler()
        let server = Server([Attempt(values: [1, -1, 2]), Attempt(values: [3])], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, Outage>()
        server.publisher
            .retry(3, whenOutcome: Self.handles, backoff: .constant(.seconds(1)), scheduler: scheduler)
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(subscriber.values == [1, 3])
        #expect(subscriber.completion == .finished)
    }

    @Test func aHandledValueTakesFromTheBudgetAndAnAcceptedOneRefillsIt() {
        let scheduler = TestScheduler()
        let budget = RetryBudget(capacity: 10, retryCost: 5, successRefill: 1)
        let server = Server([Attempt(values: [-1]), Attempt(values: [7])], scheduler: scheduler)
        let subscriber = TestSubscriber<Int, Outage>()
        server.publisher
            .retry(3, whenOutcome: Self.handles, backoff: .immediate, budget: budget, scheduler: scheduler)
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [7])
        #expect(budget.available == 6)
    }
}
