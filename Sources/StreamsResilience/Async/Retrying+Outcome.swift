import Streams

/// `retrying(_:when:backoff:…)` deciding on values as well as errors: `shouldRetry` judges each
/// returned value (`.value`) and each error (`.failure`), and a value it handles is retried as a
/// failure would be, in the same order and by the same rule as the publishers'
/// `retry(_:whenOutcome:backoff:scheduler:)`. When the retry gives up on a handled value, that
/// value is returned (the last outcome is the caller's, as with Polly v8's `ShouldHandle`);
/// `onRetry`, `onGiveUp` and the events see it as an `AttemptOutcome`. A caller's cancel ends
/// the call with `CancellationError`, never retried.
///
/// ```swift
/// let reply = try await retrying(2, whenOutcome: { outcome in
///     switch outcome {
///     case .value(let reply): reply.error?.code == -32603           // JSON-RPC internal error
///     case .failure(let error): error.resolveCategory() == .retryable
///     }
/// }, backoff: .exponential()) {
///     try await rpc.call("getBalance")
/// }
/// ```
public func retrying<Value, C: Clock>(
    _ maxRetries: Int,
    whenOutcome shouldRetry: @escaping (AttemptOutcome<Value, any Error>) -> Bool,
    backoff: Backoff,
    retryAfterLimit: Duration = RetryAfter.defaultLimit,
    maxElapsed: Duration? = nil,
    budget: RetryBudget? = nil,
    isSafeToRepeat: Bool = true,
    clock: C = ContinuousClock(),
    events: ResilienceEvents = .none,
    onRetry: ((RetryAttempt<any Error>) -> Void)? = nil,
    onGiveUp: ((RetryReport<any Error>) -> Void)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> Value
) async throws -> Value where C.Duration == Duration {
    precondition(maxRetries >= 0, "retrying(_:whenOutcome:backoff:) requires a retry count of zero or more, got \(maxRetries)")
    var random = SystemRandomNumberGenerator()
    let loop = AsyncRetryLoop(
        maxRetries: maxRetries, shouldRetry: { shouldRetry(.failure($0)) }, backoff: backoff,
        retryAfterLimit: retryAfterLimit, maxElapsed: maxElapsed, budget: budget, isSafeToRepeat: { isSafeToRepeat },
        clock: clock, events: events, onRetry: onRetry, onGiveUp: onGiveUp)
    return try await loop.run(using: &random, handling: { shouldRetry(.value($0)) }) { _ in try await operation() }
}
