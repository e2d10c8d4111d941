import Streams
import StreamsResilience
import Testing

/// `ResiliencePolicy.lint()`: settings that defeat one another, each told with its rule.
@Suite("ResiliencePolicy.lint()")
struct ResiliencePolicyLintTests {
    @Test func thePresetsAreSound() {
        #expect(ResiliencePolicy.standardHTTP.lint().isEmpty)
        #expect(ResiliencePolicy().lint().isEmpty)
        #expect(ResiliencePolicy.retrying(3, backoff: .exponential()).lint().isEmpty)
    }

    @Test func anAttemptTimeoutNotShorterThanTheTotalTimeout() {
        let policy = ResiliencePolicy(totalTimeout: .seconds(5), attemptTimeout: .seconds(5))
        let problems = policy.lint()
        #expect(problems.map(\.rule) == [.attemptTimeoutNotShorterThanTotalTimeout])
        #expect(problems.first?.message.contains("attemptTimeout (5.0 seconds) is not shorter than totalTimeout") == true)
        #expect(ResiliencePolicy(totalTimeout: .seconds(5), attemptTimeout: .seconds(4)).lint().isEmpty)
    }

    @Test func retryWaitsThatAloneExceedTheTotalTimeout() {
        // 1 + 2 + 4 + 8 = 15 s of waits in a 10 s budget: the fourth retry never starts.
        let backoff = Backoff.exponential(initial: .seconds(1), jitter: .none)
        let policy = ResiliencePolicy(totalTimeout: .seconds(10), retry: .init(maxRetries: 4, backoff: backoff))
        let problems = policy.lint()
        #expect(problems.map(\.rule) == [.retryWaitsExceedTotalTimeout])
        #expect(problems.first?.message.contains("4 retries, 15.0 seconds before jitter") == true)
        #expect(ResiliencePolicy(totalTimeout: .seconds(10), retry: .init(maxRetries: 3, backoff: backoff)).lint().isEmpty)
        let endless = ResiliencePolicy(
            totalTimeout: .seconds(10), retry: .init(maxRetries: .max, backoff: .constant(.seconds(1))))
        #expect(endless.lint().map(\.rule) == [.retryWaitsExceedTotalTimeout])
    }

    @Test func aHedgingDelayNotShorterThanTheAttemptTimeout() {
        var policy = ResiliencePolicy(attemptTimeout: .seconds(1))
        policy.hedging = Hedging(maxAttempts: 2, delay: .seconds(2))
        #expect(policy.lint().map(\.rule) == [.hedgingDelayNotShorterThanAttemptTimeout])
        policy.hedging = Hedging(maxAttempts: 2, delay: .milliseconds(500))
        #expect(policy.lint().isEmpty)
        policy.hedging = Hedging(maxAttempts: 1, delay: .seconds(2))  // no hedge is ever made
        #expect(policy.lint().isEmpty)
    }

    @Test func aMinimumThroughputACountWindowCannotReach() {
        let policy = ResiliencePolicy(circuitBreaker: .init(window: .count(20), minimumThroughput: 100))
        let problems = policy.lint()
        #expect(problems.map(\.rule) == [.minimumThroughputBeyondWindow])
        #expect(problems.first?.message.contains("lower minimumThroughput to 20 or less") == true)
        #expect(ResiliencePolicy(circuitBreaker: .init(window: .count(20), minimumThroughput: 20)).lint().isEmpty)
        #expect(ResiliencePolicy(circuitBreaker: .init(window: .time(.seconds(1)), minimumThroughput: 100)).lint().isEmpty)
    }

    @Test func everyBrokenRuleIsTold() {
        var policy = ResiliencePolicy(
            totalTimeout: .seconds(1), retry: .init(maxRetries: 5, backoff: .constant(.seconds(1))),
            circuitBreaker: .init(window: .count(1), minimumThroughput: 2), attemptTimeout: .seconds(2))
        policy.hedging = Hedging(delay: .seconds(3))
        #expect(policy.lint().map(\.rule) == ResiliencePolicy.LintProblem.Rule.allCases)
    }
}
