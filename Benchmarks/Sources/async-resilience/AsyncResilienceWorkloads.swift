// The async face's workloads: one call of an `async` operation per iteration, through a
// hand-written retry loop (H), `ResiliencePipeline.execute` (E, S) and `retrying(...)` (R).
// The operation passes through `opaque` first, so the optimiser calls it as a library would,
// through a closure it cannot see into; every variant sums what the calls return.

import Streams
import StreamsResilience

/// Hands `value` back unchanged where the optimiser cannot see it.
@inline(never)
@_optimize(none)
func opaque<T>(_ value: T) -> T { value }

/// A failure the retries treat as transient.
struct Outage: CategorizedError {
    var category: ErrorCategory { .retryable }
}

/// The workloads, each `(calls) async -> checksum`, run on the global concurrent executor (they
/// are `nonisolated`), so that no call hops between executors.
enum AsyncResilienceWorkloads {
    /// The operation of the "1" workloads: returns at once. Given the attempt's number, from 1.
    static let succeeds: @Sendable (Int) async throws -> Int = opaque { @Sendable (attempt: Int) async throws -> Int in attempt }

    /// The operation of the "2" workloads: the first attempt throws `Outage`, the second returns.
    static let failsOnce: @Sendable (Int) async throws -> Int = opaque { @Sendable (attempt: Int) async throws -> Int in
        if attempt == 1 { throw Outage() }
        return attempt
    }

    /// H: what a user writes without the library: `maxRetries` retries, no wait beyond
    /// `Task.sleep(for: .zero)`, of the errors whose category is `.retryable` (`retry`'s `when`).
    static func handWritten(
        maxRetries: Int, _ operation: @Sendable (Int) async throws -> Int
    ) async throws -> Int {
        for attempt in 1...maxRetries + 1 {
            do {
                return try await operation(attempt)
            } catch {
                guard attempt <= maxRetries, error.resolveCategory() == .retryable else { throw error }
                try await Task.sleep(for: .zero)
            }
        }
        preconditionFailure("unreachable: the last attempt returns or throws")
    }

    /// H1 and H2.
    static func handWrittenLoop(_ operation: @escaping @Sendable (Int) async throws -> Int) -> @Sendable (Int) async -> Int {
        { calls in
            var sum = 0
            for _ in 0..<calls {
                do { sum &+= try await handWritten(maxRetries: 3, operation) } catch { sum &-= 1 }
            }
            return sum
        }
    }

    /// E1 and E2: `execute` with a retry and nothing else.
    static func execute(_ operation: @escaping @Sendable (Int) async throws -> Int) -> @Sendable (Int) async -> Int {
        executing(ResiliencePipeline(ResiliencePolicy(retry: .init(maxRetries: 3, backoff: .immediate))), operation)
    }

    /// S1: `execute` with `.standardHTTP` (concurrency limiter, total timeout, retry with a budget,
    /// circuit breaker, attempt timeout).
    static func executeStandardHTTP(_ operation: @escaping @Sendable (Int) async throws -> Int) -> @Sendable (Int) async -> Int {
        executing(ResiliencePipeline(.standardHTTP), operation)
    }

    /// Calls `operation` through `pipeline`, once per iteration.
    static func executing(
        _ pipeline: ResiliencePipeline, _ operation: @escaping @Sendable (Int) async throws -> Int
    ) -> @Sendable (Int) async -> Int {
        { calls in
            var sum = 0
            for _ in 0..<calls {
                do { sum &+= try await pipeline.execute { attempt in try await operation(attempt.number) } } catch { sum &-= 1 }
            }
            return sum
        }
    }

    /// R1 and R2: `retrying(3, backoff: .immediate)`.
    static func retryingLoop(_ operation: @escaping @Sendable (Int) async throws -> Int) -> @Sendable (Int) async -> Int {
        { calls in
            var sum = 0
            for _ in 0..<calls {
                var attempt = 0
                do {
                    sum &+= try await retrying(3, backoff: .immediate) {
                        attempt += 1
                        return try await operation(attempt)
                    }
                } catch {
                    sum &-= 1
                }
            }
            return sum
        }
    }
}
