import Streams

/// One call to `sleep(for:)` or `sleep(until:)`: suspends the calling task until `scheduler`
/// fires or the task is cancelled.
final class SchedulerSleep: Sendable {
    let state = LockedState(SleepStateMachine())

    /// Suspends until `scheduler` reaches `deadline`, on the caller's actor (the task resumes
    /// straight onto it); throws `CancellationError` if the task is cancelled first. `interval`
    /// is how long the caller means to wait: when it is zero or less, the wake-up is due on the
    /// scheduler's next turn.
    func run<Context: Scheduler>(
        on scheduler: Context,
        until deadline: Context.SchedulerTimeType,
        interval: Context.SchedulerTimeType.Stride,
        tolerance: Context.SchedulerTimeType.Stride,
        options: Context.SchedulerOptions?,
        isolation: isolated (any Actor)?
    ) async throws {
        try Task.checkCancellation()
        await withTaskCancellationHandler {
            // Naming `isolation` keeps both closures on the caller's actor: the wake-up is
            // scheduled from there, without a hop to the global executor.
            await withCheckedContinuation(isolation: isolation) { (continuation: CheckedContinuation<Void, Never>) in
                switch state.withLock({ $0.suspend(continuation) }) {
                case .resume(let continuation):
                    continuation.resume()
                    return
                case .schedule:
                    break
                }
                // Due at `deadline` as the caller computed it: reading the clock again here would
                // move the wake-up by however far the clock has moved since.
                guard interval > .zero else {
                    // Nothing to cancel: a date that has passed fires on the scheduler's next turn.
                    scheduler.schedule(after: deadline, tolerance: tolerance, options: options) { [self] in fire() }
                    return
                }
                // Repeating work, as for a timer, so that cancelling the sleep removes it; it is
                // stopped as soon as it has fired once.
                let cancellable = scheduler.schedule(
                    after: deadline, interval: interval, tolerance: tolerance, options: options
                ) { [self] in fire() }
                switch state.withLock({ $0.attach(cancellable) }) {
                case .none: break
                case .cancel(let cancellable): cancellable.cancel()
                }
            }
        } onCancel: {
            switch state.withLock({ $0.cancel() }) {
            case .none:
                break
            case .resume(let continuation, let cancellable):
                continuation.resume()
                cancellable?.cancel()
            }
        }
        state.withLock { $0.wakeObserver }?.taskDidResume()
        try Task.checkCancellation()
    }

    private func fire() {
        let observer = SchedulerWake.observer
        switch state.withLock({ $0.fire(observer: observer) }) {
        case .none:
            break
        case .resume(let continuation, let cancellable):
            observer?.taskWillResume()
            continuation.resume()
            cancellable?.cancel()
        }
    }
}
