import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// `retrying(_:when:backoff:…)`: the selective retry for `async` code.
@MainActor
@Suite("retrying(_:when:backoff:)")
struct RetryingTests {
    let clock = TestClock()

    @Test func retriesUntilItReturnsWaitingTheBackoffOnTheClock() async throws {
        let backend = AsyncBackend([.failure(.outage), .failure(.outage), .value], clock: clock)
        let clock = clock
        let task = Task {
            var random = SystemRandomNumberGenerator()
            return try await retrying(
                3, backoff: .exponential(initial: .seconds(1), jitter: .none), clock: clock, random: &random
            ) {
                try await backend.call(ResilienceAttempt(number: 0, hedge: 0))
            }
        }
        await eventually { clock.scheduler.scheduledCount == 1 }
        await clock.advance(by: .seconds(1))
        await eventually { backend.callCount == 2 && clock.scheduler.scheduledCount == 1 }
        await clock.advance(by: .seconds(2))
        #expect(try await task.value == 1)
        #expect(backend.callTimes == [.zero, .seconds(1), .seconds(3)])
    }

    @Test func whenDecidesAndTheReportsAreTheOperatorsOwn() async {
        var retries: [String] = []
        var reports: [String] = []
        var random = SystemRandomNumberGenerator()
        do {
            _ = try await retrying(
                2, when: { ($0 as? BackendError) == .outage }, backoff: .immediate, clock: clock, random: &random,
                onRetry: { retries.append("retry \($0.retry) after \($0.error) in \($0.delay)") },
                onGiveUp: { reports.append("\($0.reason) after \($0.attempts): \($0.error)") }
            ) { () async throws -> Int in
                throw retries.isEmpty ? BackendError.outage : BackendError.badRequest
            }
        } catch {
            #expect(error as? BackendError == .badRequest)
        }
        #expect(retries == ["retry 1 after outage in 0.0 seconds"])
        #expect(reports == ["notRetryable after 2: badRequest"])
    }

    @Test func theOperationRunsInTheCallersIsolation() async throws {
        var calls = 0  // main-actor state, mutated by the operation without a lock
        var random = SystemRandomNumberGenerator()
        let value = try await retrying(3, backoff: .immediate, clock: clock, random: &random) { () async throws -> Int in
            MainActor.assertIsolated()
            calls += 1
            if calls < 3 { throw BackendError.outage }
            return calls
        }
        #expect(value == 3)
    }

    @Test func maxElapsedStopsARetryThatWouldStartTooLate() async {
        var random = SystemRandomNumberGenerator()
        var reports: [RetryGiveUpReason] = []
        do {
            _ = try await retrying(
                5, backoff: .constant(.seconds(10)), maxElapsed: .seconds(5), clock: clock, random: &random,
                onGiveUp: { reports.append($0.reason) }
            ) { () async throws -> Int in throw BackendError.outage }
        } catch {
            #expect(error as? BackendError == .outage)
        }
        #expect(reports == [.deadline])
    }

    @Test func aSharedBudgetStopsRetries() async {
        let budget = RetryBudget(capacity: 5, retryCost: 5, successRefill: 0)
        var random = SystemRandomNumberGenerator()
        var attempts = 0
        do {
            _ = try await retrying(5, backoff: .immediate, budget: budget, clock: clock, random: &random) {
                () async throws -> Int in
                attempts += 1
                throw BackendError.outage
            }
        } catch {}
        #expect(attempts == 2)
        #expect(budget.available == 0)
    }

    @Test func aNegativeRetryCountIsRefusedWithTheRule() async {
        await #expect(processExitsWith: .failure) {
            _ = try? await retrying(-1, backoff: .immediate) { 1 }
        }
    }
}
