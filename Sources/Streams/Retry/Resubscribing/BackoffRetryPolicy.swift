/// The policy of `retry(_:when:backoff:scheduler:)`: the decision of Docs/RetryAndBackoff.md,
/// in its order, and a wait on the scheduler for every retry, even a zero one.
///
/// A class, because the jitter's generator, the previous delay and the attempt count change with
/// each attempt; attempts run one at a time, and each of these is touched only by the attempt or
/// the decision in progress (the subscription's lock orders them).
@usableFromInline
package final class BackoffRetryPolicy<Upstream: Publisher, Context: Scheduler>: ResubscribePolicy {
    @usableFromInline
    package typealias Failure = Upstream.Failure

    @usableFromInline
    package let configuration: Publishers.SelectiveRetry<Upstream, Context>
    /// When the first attempt was made (with `transient`: the first after the last value), for
    /// `maxElapsed`.
    @usableFromInline
    package var firstSubscription: Context.SchedulerTimeType
    // Touched only by the attempt or the decision in progress.
    @usableFromInline
    package var random: any RandomNumberGenerator
    @usableFromInline
    package var previousDelay: Duration?
    /// The attempts made so far.
    @usableFromInline
    package var attempts = 0
    /// The attempts made before the count started again (`transient`): retry `n` follows
    /// attempt `retryBase + n`.
    @usableFromInline
    package var retryBase = 0
    /// The tokens the last decision to retry took from the budget.
    @usableFromInline
    package var lastCost = 0
    /// When the running attempt started on the scheduler's time line, while events are observed.
    @usableFromInline
    package var attemptStart: Duration?

    @inlinable
    package init(configuration: Publishers.SelectiveRetry<Upstream, Context>) {
        self.configuration = configuration
        firstSubscription = configuration.scheduler.now
        random = configuration.makeRandom()
    }

    @inlinable
    package static var name: String { "SelectiveRetry" }

    @inlinable
    package var budget: RetryBudget? { configuration.budget }

    /// The scheduler's interval for `duration`, clamped.
    @inlinable
    package static func stride(_ duration: Duration) -> Context.SchedulerTimeType.Stride {
        .nanoseconds(Int(clamping: duration.nanoseconds))
    }

    /// Where the scheduler's clock stands on its time line, when its time type has one.
    @inlinable
    package var timelineNow: Duration? {
        configuration.observer?.timelineOffset(configuration.scheduler.now)
    }

    @inlinable
    package func attemptStarted() -> Bool {
        attempts += 1
        guard let observer = configuration.observer else { return false }
        attemptStart = timelineNow
        observer.emit(.attemptStarted(attempt: attempts))
        return true
    }

    /// Refills the budget; with `transient`, the next failure is again followed by retry 1,
    /// with the backoff and `maxElapsed` starting over.
    @inlinable
    package func attemptSucceeded() {
        configuration.budget?.recordSuccess()
        guard configuration.transient else { return }
        retryBase = attempts - 1
        previousDelay = nil
        firstSubscription = configuration.scheduler.now
    }

    @inlinable
    package func attemptEnded(failure: Failure?) {
        guard let observer = configuration.observer else { return }
        var duration: Duration?
        if let start = attemptStart, let end = timelineNow { duration = end - start }
        observer.emit(.attemptEnded(attempt: attempts, duration: duration, error: failure))
    }

    @inlinable
    package func gaveUp(reason: RetryGiveUpReason, error: Failure, attempt: Int) {
        configuration.observer?.emit(.retryGaveUp(reason: reason, attempts: attempts, error: error))
        guard let onGiveUp = configuration.onGiveUp else { return }
        onGiveUp(RetryReport(reason: reason, attempts: attempts, error: error))
    }

    /// Retry number `retry` (1 for the first retry after the first attempt, or with `transient`
    /// after the last value) is made if `when` accepts the error, retries are left, the wait
    /// ends before `maxElapsed`, the server's hint is within `retryAfterLimit` and the budget
    /// pays for it (a timeout costs more). Once `when` has answered, nothing more is done if the
    /// stream was cancelled meanwhile (by `when` itself, or on another thread).
    @inlinable
    package func decide<Target: ResubscribeWaitTarget>(after error: Failure, attempt: Int, checking target: Target)
        -> ResubscribeDecision
    where Target.Failure == Failure {
        // An observer was told the attempt's end: a cancel meanwhile stops the decision.
        if configuration.observer != nil, !target.mayProceed(afterFailureOf: attempt) { return .stop }
        guard configuration.shouldRetry(error) else {
            return .giveUp(RetryRule.reason(for: error, otherwise: .notRetryable))
        }
        guard target.mayProceed(afterFailureOf: attempt) else { return .stop }
        let scheduler = configuration.scheduler
        let verdict = RetryRule.judge(
            error, retry: attempt - retryBase, maxRetries: configuration.maxRetries, backoff: configuration.backoff,
            previous: previousDelay, using: &random, retryAfterLimit: configuration.retryAfterLimit,
            budget: configuration.budget
        ) { wait in
            guard let maxElapsed = configuration.maxElapsed else { return false }
            return scheduler.now.advanced(by: Self.stride(wait)) > firstSubscription.advanced(by: Self.stride(maxElapsed))
        }
        switch verdict {
        case .giveUp(let reason):
            return .giveUp(reason)
        case .retry(let wait, let backoffDelay, let cost):
            lastCost = cost
            previousDelay = backoffDelay
            return .wait(wait)
        }
    }

    /// A decision to wait that the stream no longer wants gives its budget tokens back.
    @inlinable
    package func dropped(_ decision: ResubscribeDecision) {
        if case .wait = decision { configuration.budget?.refund(lastCost) }
    }

    /// Tells `onRetry` (and the events), then, unless the stream was cancelled meanwhile, waits
    /// `delay` on the scheduler. The wait is a repeating schedule cancelled when it first fires,
    /// because that is the form of `schedule` that returns a `Cancellable`: cancelling the stream
    /// removes the wait from the scheduler at once.
    @inlinable
    package func startWait<Target: ResubscribeWaitTarget>(
        after error: Failure, attempt: Int, delay: Duration, waking target: Target
    )
    where Target.Failure == Failure {
        let retry = attempt - retryBase
        if let observer = configuration.observer {
            observer.emit(.retryScheduled(retry: retry, delay: delay, error: error))
            guard target.mayProceed(afterFailureOf: attempt) else { return }
        }
        if let onRetry = configuration.onRetry {
            onRetry(RetryAttempt(retry: retry, error: error, delay: delay))
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
