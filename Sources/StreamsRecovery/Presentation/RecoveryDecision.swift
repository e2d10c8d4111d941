/// What a pipeline does after the user chose a ``RecoveryOption``.
///
/// ```swift
/// let reload = RecoveryOption(title: "Reload") { cache.clear(); return .tryAgain }
/// ```
public enum RecoveryDecision: Sendable, Hashable {
    /// Subscribe to the failed publisher again.
    case tryAgain
    /// End the stream quietly: it finishes without the error.
    case cancel
    /// Let the error through: the stream fails with it.
    case fail
}
