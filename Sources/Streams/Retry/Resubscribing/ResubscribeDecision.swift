/// A ``ResubscribePolicy``'s answer to a failed attempt.
@usableFromInline
package enum ResubscribeDecision {
    /// Deliver the failure downstream, for this reason.
    case giveUp(RetryGiveUpReason)
    /// The stream was cancelled while deciding (the target said so): do nothing more.
    case stop
    /// Subscribe to the upstream again at once.
    case now
    /// Start the policy's wait (`delay` is for the policy) and subscribe again when it ends.
    case wait(Duration)
}
