import Synchronization

/// What one subscription of `recover(through:presenter:)` needs to remember across attempts:
/// whether the user chose to cancel, and whether the first attempt was made.
final class RecoveryRun: Sendable {
    private let cancelled = Atomic(false)
    private let attempted = Atomic(false)

    /// Whether the user chose "Cancel".
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// The user chose "Cancel".
    func markCancelled() {
        cancelled.store(true, ordering: .releasing)
    }

    /// An attempt begins: `true` for the first one.
    func startAttempt() -> Bool {
        !attempted.exchange(true, ordering: .acquiringAndReleasing)
    }
}
