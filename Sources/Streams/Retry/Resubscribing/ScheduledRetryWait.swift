/// The wait before one retry of `retry(_:when:backoff:scheduler:)`: tells `onRetry`, then waits
/// `attempt.delay` on the scheduler, even a zero delay.
///
/// The wait is a repeating schedule cancelled when it first fires, because that is the form of
/// `schedule` that returns a `Cancellable`: cancelling the stream removes the wait from the
/// scheduler at once.
@usableFromInline
struct ScheduledRetryWait<Context: Scheduler, Failure: Error>: ResubscribeWait {
    @usableFromInline
    let attempt: RetryAttempt<Failure>
    @usableFromInline
    let scheduler: Context
    @usableFromInline
    let onRetry: ((RetryAttempt<Failure>) -> Void)?

    @inlinable
    init(attempt: RetryAttempt<Failure>, scheduler: Context, onRetry: ((RetryAttempt<Failure>) -> Void)?) {
        self.attempt = attempt
        self.scheduler = scheduler
        self.onRetry = onRetry
    }

    /// The scheduler's interval for `duration`, clamped.
    @inlinable
    static func stride(_ duration: Duration) -> Context.SchedulerTimeType.Stride {
        .nanoseconds(Int(clamping: duration.nanoseconds))
    }

    @inlinable
    func start<Target: ResubscribeWaitTarget>(waking target: Target, attempt number: Int) {
        onRetry?(attempt)
        let timer = scheduler.schedule(
            after: scheduler.now.advanced(by: Self.stride(attempt.delay)),
            interval: Self.stride(max(attempt.delay, .nanoseconds(1))),
            tolerance: scheduler.minimumTolerance, options: nil
        ) {
            target.waitEnded(attempt: number)
        }
        _ = target.waitStarted(timer, attempt: number)
    }
}
