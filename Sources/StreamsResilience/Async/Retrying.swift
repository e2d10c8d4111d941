import Streams

/// Calls `operation` until it returns, retrying the errors you choose with backoff and jitter,
/// and never sooner than the server asked: the selective `retry(_:when:backoff:scheduler:)` for
/// `async` code, with the same decision in the same order (`when`, the count, the wait against
/// `maxElapsed`, the `Retry-After` hint against `retryAfterLimit`, the shared `budget`), the same
/// `onRetry` and `onGiveUp` reports and the same `events`.
///
/// Giving up throws the last error unchanged. Cancelling the calling task ends the call at once
/// with `CancellationError`, during an attempt or a wait, and is never retried; an operation
/// that throws `CancellationError` while the caller is not cancelled has failed (and is not
/// retryable unless `when` says so). With `isSafeToRepeat` false, a timeout
/// (``AttemptTimeoutError``, `URLError.timedOut`) is never retried, unless it says it never
/// reached the server (`mayHaveReachedServer` false). Waits run on the continuous
/// clock; `operation` runs in the caller's isolation.
///
/// ```swift
/// let user = try await retrying(3, backoff: .exponential(initial: .milliseconds(200))) {
///     try await api.user(id)
/// }
/// ```
@inlinable
public func retrying<Value>(
    _ maxRetries: Int,
    when shouldRetry: @escaping (any Error) -> Bool = { $0.resolveCategory() == .retryable },
    backoff: Backoff,
    retryAfterLimit: Duration = RetryAfter.defaultLimit,
    maxElapsed: Duration? = nil,
    budget: RetryBudget? = nil,
    isSafeToRepeat: Bool = true,
    events: ResilienceEvents = .none,
    onRetry: ((RetryAttempt<any Error>) -> Void)? = nil,
    onGiveUp: ((RetryReport<any Error>) -> Void)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> Value
) async throws -> Value {
    guard maxElapsed == nil, !events.isObserved else {
        var random = SystemRandomNumberGenerator()
        return try await retrying(
            maxRetries, when: shouldRetry, backoff: backoff, retryAfterLimit: retryAfterLimit, maxElapsed: maxElapsed,
            budget: budget, isSafeToRepeat: isSafeToRepeat, clock: ContinuousClock(), random: &random, events: events,
            onRetry: onRetry, onGiveUp: onGiveUp, operation)
    }
    // Nothing reads the clock before or around the first attempt (no `maxElapsed`, no observer to
    // time it for): the attempt is made here, in the caller's specialised code, as the retry loop
    // would make it, and the loop is set up only if it fails. See "The async face" in
    // Docs/Performance.md.
    precondition(maxRetries >= 0, "retrying(_:when:backoff:) requires a retry count of zero or more, got \(maxRetries)")
    try Task.checkCancellation()
    do {
        let value = try await operation()
        budget?.recordSuccess()
        return value
    } catch {
        // The caller's cancel: the attempt's error, whatever it is, is not a failure.
        if Task.isCancelled { throw CancellationError() }
        return try await retrying(
            afterFirstFailure: error, maxRetries, when: shouldRetry, backoff: backoff, retryAfterLimit: retryAfterLimit,
            budget: budget, isSafeToRepeat: isSafeToRepeat, onRetry: onRetry, onGiveUp: onGiveUp, operation)
    }
}

/// `retrying(_:when:backoff:…)` on the continuous clock, after its first attempt failed with
/// `failure` while the caller was not cancelled (no `maxElapsed`, no observer).
@usableFromInline
func retrying<Value>(
    afterFirstFailure failure: any Error,
    _ maxRetries: Int,
    when shouldRetry: @escaping (any Error) -> Bool,
    backoff: Backoff,
    retryAfterLimit: Duration,
    budget: RetryBudget?,
    isSafeToRepeat: Bool,
    onRetry: ((RetryAttempt<any Error>) -> Void)?,
    onGiveUp: ((RetryReport<any Error>) -> Void)?,
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> Value
) async throws -> Value {
    var random = SystemRandomNumberGenerator()
    let loop = AsyncRetryLoop(
        maxRetries: maxRetries, shouldRetry: shouldRetry, backoff: backoff, retryAfterLimit: retryAfterLimit,
        maxElapsed: nil, budget: budget, isSafeToRepeat: { isSafeToRepeat }, clock: ContinuousClock(), events: .none,
        onRetry: onRetry, onGiveUp: onGiveUp)
    return try await loop.run(using: &random, afterFirstFailure: failure) { _ in try await operation() }
}

/// `retrying(_:when:backoff:…)` waiting on `clock` (StreamsTesting's `TestClock` in a test), with
/// the jitter drawn from `random`, so that tests and simulations get the same delays each run.
///
/// ```swift
/// let clock = TestClock()
/// var random = SeededRandom(seed: 42)
/// let task = Task {
///     try await retrying(2, backoff: .constant(.seconds(1)), clock: clock, random: &random) { try await flaky() }
/// }
/// await clock.advance(by: .seconds(2))
/// ```
public func retrying<Value, C: Clock, G: RandomNumberGenerator>(
    _ maxRetries: Int,
    when shouldRetry: @escaping (any Error) -> Bool = { $0.resolveCategory() == .retryable },
    backoff: Backoff,
    retryAfterLimit: Duration = RetryAfter.defaultLimit,
    maxElapsed: Duration? = nil,
    budget: RetryBudget? = nil,
    isSafeToRepeat: Bool = true,
    clock: C,
    random: inout G,
    events: ResilienceEvents = .none,
    onRetry: ((RetryAttempt<any Error>) -> Void)? = nil,
    onGiveUp: ((RetryReport<any Error>) -> Void)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> Value
) async throws -> Value where C.Duration == Duration {
    precondition(maxRetries >= 0, "retrying(_:when:backoff:) requires a retry count of zero or more, got \(maxRetries)")
    let loop = AsyncRetryLoop(
        maxRetries: maxRetries, shouldRetry: shouldRetry, backoff: backoff, retryAfterLimit: retryAfterLimit,
        maxElapsed: maxElapsed, budget: budget, isSafeToRepeat: { isSafeToRepeat }, clock: clock, events: events,
        onRetry: onRetry, onGiveUp: onGiveUp)
    return try await loop.run(using: &random) { _ in try await operation() }
}
