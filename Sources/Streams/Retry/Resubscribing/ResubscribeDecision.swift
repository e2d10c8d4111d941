/// A ``ResubscribePolicy``'s answer to a failed attempt.
@usableFromInline
enum ResubscribeDecision<Wait: ResubscribeWait> {
    /// Deliver the failure downstream.
    case giveUp
    /// Subscribe to the upstream again at once.
    case now
    /// Start `Wait` and subscribe again when it ends (or give up if it is abandoned).
    case wait(Wait)
}
