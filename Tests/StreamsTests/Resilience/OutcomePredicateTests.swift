import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// Outcome predicates: the policy's `retryWhen` and `circuitBreakerWhen`, the breaker's
/// `whenOutcome` and the `async` retry's, judging values as well as errors, on virtual time and
/// with one rule for both faces.
@Suite("Outcome predicates")
struct OutcomePredicateTests {
    /// A script of replies: a negative value is a `200` whose body says "error".
    final class Replies: Sendable {
        private let script: [Int]
        private let count = Locked(0)

        init(_ script: [Int]) { self.script = script }

        var calls: Int { count.withLock { $0 } }

        func next() -> Int {
            let index = count.withLock { count in
                count += 1
                return count - 1
            }
            return script[min(index, script.count - 1)]
        }

        var publisher: AnyPublisher<Int, BackendError> {
            Deferred { Just(self.next()).setFailureType(to: BackendError.self) }.eraseToAnyPublisher()
        }
    }

    /// The policy's closure: a negative value is an error in disguise.
    static let errorReply: @Sendable (ResilienceOutcome) -> Bool = { outcome in
        guard case .value(let value as Int) = outcome else { return false }
        return value < 0
    }

    static var retryingErrorReplies: ResiliencePolicy {
        var policy = ResiliencePolicy(retry: .init(maxRetries: 2, backoff: .constant(.seconds(1))))
        policy.retryWhen = errorReply
        return policy
    }

    @Test func thePolicyRetriesAValueItsClosureHandles() {
        let scheduler = TestScheduler()
        let replies = Replies([-1, 7])
        let subscriber = TestSubscriber<Int, ResilienceError<BackendError>>()
        replies.publisher.resilient(Self.retryingErrorReplies, scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(replies.calls == 2)
        #expect(subscriber.values == [7])
        #expect(subscriber.completion == .finished)
    }

    @Test func whenThePolicysRetriesRunOutTheLastValueIsDelivered() {
        let scheduler = TestScheduler()
        let replies = Replies([-1])
        let reports = Locked<[String]>([])
        var policy = Self.retryingErrorReplies
        policy.onRetryGiveUp = { report in reports.withLock { $0.append("\(report.reason) after \(report.attempts)") } }
        let subscriber = TestSubscriber<Int, ResilienceError<BackendError>>()
        replies.publisher.resilient(policy, scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(replies.calls == 3)
        #expect(subscriber.values == [-1])
        #expect(subscriber.completion == .finished)
        #expect(reports.withLock { $0 } == ["exhausted after 3"])
    }

    @Test func thePolicysClosureAddsErrorsToItsCategories() {
        let scheduler = TestScheduler()
        var policy = Self.retryingErrorReplies
        policy.retryWhen = { ($0.error as? BackendError) == .badRequest }
        var attempts = 0
        let upstream = Deferred { () -> AnyPublisher<Int, BackendError> in
            attempts += 1
            return attempts == 1
                ? Fail(error: .badRequest).eraseToAnyPublisher()
                : Just(7).setFailureType(to: BackendError.self).eraseToAnyPublisher()
        }
        let subscriber = TestSubscriber<Int, ResilienceError<BackendError>>()
        upstream.resilient(policy, scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(attempts == 2)
        #expect(subscriber.values == [7])
    }

    @Test func executeRetriesAValueThePolicyHandlesAndReturnsTheLastOne() async throws {
        let clock = TestClock()
        var policy = Self.retryingErrorReplies
        policy.retry?.backoff = .immediate
        let recovering = Replies([-1, 7])
        #expect(try await ResiliencePipeline(policy).execute(clock: clock) { _ in recovering.next() } == 7)
        #expect(recovering.calls == 2)
        let broken = Replies([-1])
        #expect(try await ResiliencePipeline(policy).execute(clock: clock) { _ in broken.next() } == -1)
        #expect(broken.calls == 3)
    }

    @Test func theBreakerCountsAValueItsClosureHandlesAsAFailure() async throws {
        var policy = ResiliencePolicy(
            circuitBreaker: .init(failureRatio: 0.5, window: .count(2), minimumThroughput: 2, breakDuration: .seconds(5)))
        policy.circuitBreakerWhen = Self.errorReply
        // The publishers' face.
        let scheduler = TestScheduler()
        let pipeline = ResiliencePipeline(policy)
        let replies = Replies([-1])
        for _ in 0..<2 {
            let subscriber = TestSubscriber<Int, ResilienceError<BackendError>>()
            replies.publisher.resilient(pipeline, scheduler: scheduler).subscribe(subscriber)
            #expect(subscriber.values == [-1])
        }
        #expect(pipeline.circuitBreaker?.currentState == .open)
        // The async face.
        let clock = TestClock()
        let asyncPipeline = ResiliencePipeline(policy)
        for _ in 0..<2 { #expect(try await asyncPipeline.execute(clock: clock) { _ in -1 } == -1) }
        #expect(asyncPipeline.circuitBreaker?.currentState == .open)
        // Without the closure, a value is a success.
        policy.circuitBreakerWhen = nil
        let healthy = ResiliencePipeline(policy)
        for _ in 0..<2 { #expect(try await healthy.execute(clock: clock) { _ in -1 } == -1) }
        #expect(healthy.circuitBreaker?.currentState == .closed)
    }

    @Test func theBreakersWhenOutcomeCountsValues() {
        let scheduler = TestScheduler()
        let breaker = CircuitBreaker(.init(failureRatio: 0.5, window: .count(2), minimumThroughput: 2))
        let replies = Replies([-1])
        for _ in 0..<2 {
            let subscriber = TestSubscriber<Int, ResilienceError<BackendError>>()
            replies.publisher
                .circuitBreaker(breaker, whenOutcome: { ($0.value ?? 0) < 0 }, scheduler: scheduler)
                .subscribe(subscriber)
            #expect(subscriber.values == [-1])
        }
        #expect(breaker.currentState == .open)
    }

    @Test func theAsyncRetryJudgesValuesWithItsClosure() async throws {
        let clock = TestClock()
        let recovering = Replies([-1, -2, 7])
        let value = try await retrying(3, whenOutcome: { ($0.value ?? 0) < 0 }, backoff: .immediate, clock: clock) {
            recovering.next()
        }
        #expect(value == 7)
        #expect(recovering.calls == 3)
        let broken = Replies([-1])
        let reports = Locked<[String]>([])
        let last = try await retrying(
            1, whenOutcome: { ($0.value ?? 0) < 0 }, backoff: .immediate, clock: clock,
            onGiveUp: { report in reports.withLock { $0.append("\(report.reason): \(report.error)") } }
        ) { broken.next() }
        #expect(last == -1)
        #expect(broken.calls == 2)
        #expect(reports.withLock { $0 } == ["exhausted: value(Int)"])
    }
}
