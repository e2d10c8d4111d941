/// A ``ResubscribePolicy``'s answer to a failed attempt.
@usableFromInline
enum ResubscribeDecision {
    /// Deliver the failure downstream.
    case giveUp
    /// Subscribe to the upstream again at once.
    case now
    /// Start the policy's wait (`delay` is for the policy) and subscribe again when it ends.
    case wait(Duration)
}
