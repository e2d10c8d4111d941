import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// Each attempt of `execute` knows the time it has: its attempt timeout, or what is left of the
/// total timeout.
@MainActor
@Suite("ResilienceAttempt.timeLeft")
struct AttemptTimeLeftTests {
    @Test func anAttemptHasTheSoonerOfItsTimeoutAndTheTimeLeftBeforeTheDeadline() async throws {
        let clock = TestClock()
        let policy = ResiliencePolicy(
            totalTimeout: .seconds(5), retry: .init(maxRetries: 2, backoff: .constant(.seconds(2))),
            attemptTimeout: .seconds(4))
        let backend = AsyncBackend([.failure(.outage), .failure(.outage), .value], clock: clock)
        let seen = Locked<[Duration?]>([])
        let pipeline = ResiliencePipeline(policy)
        let task = Task {
            try await pipeline.execute(clock: clock) { attempt in
                seen.withLock { $0.append(attempt.timeLeft) }
                return try await backend.call(attempt)
            }
        }
        await eventually { backend.callCount == 1 && clock.scheduler.scheduledCount >= 1 }
        await clock.advance(by: .seconds(2))
        await eventually { backend.callCount == 2 }
        await clock.advance(by: .seconds(2))
        #expect(try await task.value == 1)
        #expect(seen.withLock { $0 } == [.seconds(4), .seconds(3), .seconds(1)])
    }

    @Test func withoutATimeoutAnAttemptHasNoLimit() async throws {
        let clock = TestClock()
        let backend = AsyncBackend([.value], clock: clock)
        let seen = Locked<[Duration?]>([])
        _ = try await ResiliencePipeline(ResiliencePolicy(retry: .init(maxRetries: 1, backoff: .immediate)))
            .execute(clock: clock) { attempt in
                seen.withLock { $0.append(attempt.timeLeft) }
                return try await backend.call(attempt)
            }
        #expect(seen.withLock { $0 } == [nil])
    }
}
