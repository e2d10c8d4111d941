/// The policy of `retry(_:when:backoff:scheduler:)`: RETRY.md's decision, in its order, and a
/// ``ScheduledRetryWait`` for every retry, even a zero one.
@usableFromInline
struct BackoffRetryPolicy<Upstream: Publisher, Context: Scheduler>: ResubscribePolicy {
    @usableFromInline
    typealias Failure = Upstream.Failure
    @usableFromInline
    typealias Wait = ScheduledRetryWait<Context, Failure>

    @usableFromInline
    let configuration: Publishers.RetryWhen<Upstream, Context>
    /// When the first attempt was made, for `maxElapsed`.
    @usableFromInline
    let firstSubscription: Context.SchedulerTimeType
    @usableFromInline
    var random: any RandomNumberGenerator
    /// Retries made so far.
    @usableFromInline
    var retries = 0
    @usableFromInline
    var previousDelay: Duration?

    @inlinable
    init(configuration: Publishers.RetryWhen<Upstream, Context>) {
        self.configuration = configuration
        firstSubscription = configuration.scheduler.now
        random = configuration.makeRandom()
    }

    @inlinable
    static var name: String { "RetryWhen" }

    @inlinable
    var budget: RetryBudget? { configuration.budget }

    @inlinable
    mutating func decide(after error: Failure) -> ResubscribeDecision<Wait> {
        guard configuration.shouldRetry(error), retries < configuration.maxRetries else { return .giveUp }
        let retry = retries + 1
        let hint = ((error as Any) as? any RetryAfterProviding)?.retryAfter.map { max($0, .zero) }
        let backoffDelay = configuration.backoff.delay(forRetry: retry, previous: previousDelay, using: &random)
        let wait = max(hint ?? .zero, backoffDelay)
        let scheduler = configuration.scheduler
        if let maxElapsed = configuration.maxElapsed,
            scheduler.now.advanced(by: Wait.stride(wait)) > firstSubscription.advanced(by: Wait.stride(maxElapsed))
        {
            return .giveUp
        }
        if let hint, hint > configuration.retryAfterLimit { return .giveUp }
        // Last, so that tokens go only to retries that will happen.
        if let budget = configuration.budget, !budget.withdrawRetry() { return .giveUp }
        retries = retry
        previousDelay = backoffDelay
        return .wait(Wait(
            attempt: RetryAttempt(retry: retry, error: error, delay: wait), scheduler: scheduler,
            onRetry: configuration.onRetry))
    }
}
