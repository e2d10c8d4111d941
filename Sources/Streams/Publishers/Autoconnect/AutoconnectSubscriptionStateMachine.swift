/// The state of an ``AutoconnectSubscription``: whether its `cancel()` has been counted.
/// A value with no lock and no callouts.
///
/// Phases: `active(parent)` → (the first `cancel`) → `terminated`, which lets go of the parent.
@usableFromInline
struct AutoconnectSubscriptionStateMachine {
    @usableFromInline
    enum Phase {
        case active(parent: AnyObject)
        case terminated
    }

    @usableFromInline
    var phase: Phase

    @inlinable
    init(parent: AnyObject) {
        phase = .active(parent: parent)
    }

    /// The downstream cancels: the parent whose count to lower, the first time only.
    @inlinable
    mutating func cancel() -> AnyObject? {
        guard case .active(let parent) = phase else { return nil }
        phase = .terminated
        return parent
    }
}
