import Streams

/// The state of one `sleep(for:)`: the task is resumed exactly once, by the scheduler or by
/// cancellation, whichever comes first, and the scheduled work is cancelled either way.
struct SleepStateMachine {
    enum Phase {
        /// The task has not suspended yet.
        case awaitingContinuation
        /// The task is suspended; the cancellable, once known, stops the scheduled work.
        case sleeping(CheckedContinuation<Void, Never>, (any Cancellable)?)
        /// The scheduler resumed the task, with this observer watching (if any).
        case woken((any SchedulerWakeObserver)?)
        /// Cancellation resumed the task, or came before it suspended.
        case terminated
    }

    enum SuspendAction {
        /// Schedule the wake-up.
        case schedule
        /// The task was cancelled before it suspended: resume it now.
        case resume(CheckedContinuation<Void, Never>)
    }

    enum AttachAction {
        case none
        /// The sleep is already over: stop the scheduled work.
        case cancel(any Cancellable)
    }

    enum ResumeAction {
        case none
        /// Resume the task, then stop the scheduled work (if known yet).
        case resume(CheckedContinuation<Void, Never>, (any Cancellable)?)
    }

    var phase: Phase = .awaitingContinuation

    mutating func suspend(_ continuation: CheckedContinuation<Void, Never>) -> SuspendAction {
        guard case .awaitingContinuation = phase else { return .resume(continuation) }
        phase = .sleeping(continuation, nil)
        return .schedule
    }

    mutating func attach(_ cancellable: any Cancellable) -> AttachAction {
        guard case .sleeping(let continuation, nil) = phase else { return .cancel(cancellable) }
        phase = .sleeping(continuation, cancellable)
        return .none
    }

    mutating func fire(observer: (any SchedulerWakeObserver)?) -> ResumeAction {
        guard case .sleeping(let continuation, let cancellable) = phase else { return .none }
        phase = .woken(observer)
        return .resume(continuation, cancellable)
    }

    mutating func cancel() -> ResumeAction {
        switch phase {
        case .awaitingContinuation:
            phase = .terminated
            return .none
        case .sleeping(let continuation, let cancellable):
            phase = .terminated
            return .resume(continuation, cancellable)
        case .woken, .terminated:
            return .none
        }
    }

    /// The observer to tell that the task runs again, when the scheduler woke it.
    var wakeObserver: (any SchedulerWakeObserver)? {
        guard case .woken(let observer) = phase else { return nil }
        return observer
    }
}
