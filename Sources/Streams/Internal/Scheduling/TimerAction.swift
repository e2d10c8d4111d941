/// The action a Foundation `Timer` runs for a scheduler or `Timer.publish`. On Linux, Foundation
/// never frees a `Timer` that was added to a run loop, even after it fired or was invalidated,
/// so the timer's block would keep everything it captures (a whole pipeline) for the life of the
/// process. The block captures this box instead, which lets go of the action once a one-shot
/// timer has run it, or when a repeating timer is cancelled.
package final class TimerAction: Sendable {
    /// The action, until it is released.
    private let state: LockedState<PendingAction>

    package init(_ action: @escaping () -> Void) {
        state = LockedState(PendingAction(action))
    }

    /// Runs the action, if it was not released.
    package func run() {
        state.withLock { $0 }.run()
    }

    /// Runs the action once and releases it.
    package func runOnce() {
        take().run()
    }

    /// Releases the action (outside the lock: what it holds may run code when freed).
    package func release() {
        withExtendedLifetime(take()) {}
    }

    private func take() -> PendingAction {
        state.withLock { $0.take() }
    }
}
