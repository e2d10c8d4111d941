/// The action a Foundation `Timer` runs for a scheduler or `Timer.publish`. On Linux, Foundation
/// never frees a `Timer` that was added to a run loop, even after it fired or was invalidated,
/// so the timer's block would keep everything it captures (a whole pipeline) for the life of the
/// process. The block captures this box instead, which lets go of the action once a one-shot
/// timer has run it, or when a repeating timer is cancelled.
final class TimerAction: Sendable {
    /// The action, until it is released.
    private let state: LockedState<(() -> Void)?>

    init(_ action: @escaping () -> Void) {
        state = LockedState(action)
    }

    /// Runs the action, if it was not released.
    func run() {
        state.withLock { $0 }?()
    }

    /// Runs the action once and releases it.
    func runOnce() {
        take()?()
    }

    /// Releases the action (outside the lock: what it holds may run code when freed).
    func release() {
        withExtendedLifetime(take()) {}
    }

    private func take() -> (() -> Void)? {
        state.withLock { action in
            defer { action = nil }
            return action
        }
    }
}
