/// The policy of `retry(_:when:backoff:scheduler:)`: the decision of Docs/RetryAndBackoff.md,
/// in its order, and a wait on the scheduler for every retry, even a zero one.
///
/// A class, because the jitter's generator and the previous delay change with each decision;
/// only the one decision in progress touches them.
@usableFromInline
final class BackoffRetryPolicy<Upstream: Publisher, Context: Scheduler>: ResubscribePolicy {
    @usableFromInline
    typealias Failure = Upstream.Failure

    @usableFromInline
    let configuration: Publishers.RetryWhen<Upstream, Context>
    /// When the first attempt was made, for `maxElapsed`.
    @usableFromInline
    let firstSubscription: Context.SchedulerTimeType
    // Touched only by the decision in progress.
    @usableFromInline
    var random: any RandomNumberGenerator
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

    /// The scheduler's interval for `duration`, clamped.
    @inlinable
    static func stride(_ duration: Duration) -> Context.SchedulerTimeType.Stride {
        .nanoseconds(Int(clamping: duration.nanoseconds))
    }

    /// Retry number `attempt` (the first retry follows the first attempt) is made if `when`
    /// accepts the error, retries are left, the wait ends before `maxElapsed`, the server's hint
    /// is within `retryAfterLimit` and the budget pays for it. Once `when` has answered, nothing
    /// more is done if the stream was cancelled meanwhile (by `when` itself, or on another
    /// thread).
    @inlinable
    func decide<Target: ResubscribeWaitTarget>(after error: Failure, attempt: Int, checking target: Target)
        -> ResubscribeDecision
    where Target.Failure == Failure {
        guard configuration.shouldRetry(error), attempt <= configuration.maxRetries,
            target.mayProceed(afterFailureOf: attempt)
        else { return .giveUp }
        let hint = ((error as Any) as? any RetryAfterProviding)?.retryAfter.map { max($0, .zero) }
        let backoffDelay = configuration.backoff.delay(forRetry: attempt, previous: previousDelay, using: &random)
        let wait = max(hint ?? .zero, backoffDelay)
        if let maxElapsed = configuration.maxElapsed,
            configuration.scheduler.now.advanced(by: Self.stride(wait))
                > firstSubscription.advanced(by: Self.stride(maxElapsed))
        {
            return .giveUp
        }
        if let hint, hint > configuration.retryAfterLimit { return .giveUp }
        // Last, so that tokens go only to retries that will happen.
        if let budget = configuration.budget, !budget.withdrawRetry() { return .giveUp }
        previousDelay = backoffDelay
        return .wait(wait)
    }

    /// A decision to wait that the stream no longer wants gives its budget token back.
    @inlinable
    func dropped(_ decision: ResubscribeDecision) {
        if case .wait = decision { configuration.budget?.refundRetry() }
    }

    /// Tells `onRetry`, then, unless the stream was cancelled meanwhile, waits `delay` on the
    /// scheduler. The wait is a repeating schedule cancelled when it first fires, because that is
    /// the form of `schedule` that returns a `Cancellable`: cancelling the stream removes the wait
    /// from the scheduler at once.
    @inlinable
    func startWait<Target: ResubscribeWaitTarget>(after error: Failure, attempt: Int, delay: Duration, waking target: Target)
    where Target.Failure == Failure {
        if let onRetry = configuration.onRetry {
            onRetry(RetryAttempt(retry: attempt, error: error, delay: delay))
            guard target.mayProceed(afterFailureOf: attempt) else { return }
        }
        let scheduler = configuration.scheduler
        let timer = scheduler.schedule(
            after: scheduler.now.advanced(by: Self.stride(delay)), interval: Self.stride(max(delay, .nanoseconds(1))),
            tolerance: scheduler.minimumTolerance, options: nil
        ) {
            target.waitEnded(attempt: attempt)
        }
        _ = target.waitStarted(timer, attempt: attempt)
    }
}
