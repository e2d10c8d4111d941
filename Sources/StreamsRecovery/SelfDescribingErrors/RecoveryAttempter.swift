/// What the `attemptRecovery(optionIndex:)` of a Foundation `RecoverableError` does when it
/// returns `true`, which decides what the pipeline does after it: one choice of the user is one
/// new request, through `recover(through:presenter:)` and through ``ErrorRouter`` alike.
///
/// ```swift
/// struct Expired: RecoverableError {
///     var recoveryOptions: [String] { ["Cancel", "Sign In Again"] }
///     func attemptRecovery(optionIndex: Int) -> Bool { optionIndex == 1 && session.refresh() }   // no request of its own
/// }
/// let handler = DefaultErrorHandler(recoveryAttempter: .preparesRetry)   // `recover` sends the request again
/// ```
public enum RecoveryAttempter: Sendable, Hashable {
    /// The attempter makes the new attempt itself (it sends the request again and reports
    /// whether it could), as the RecoverableError article's does: the default. A pipeline does
    /// not subscribe again after it, so `recover(through:presenter:)` ends quietly, as after
    /// "Cancel" (the new attempt's answer goes where the attempter sends it), and ``ErrorRouter``
    /// has nothing more to do.
    case retriesItself
    /// The attempter only puts things right (reconnects, refreshes a token) and the pipeline
    /// makes the new attempt: `recover(through:presenter:)` subscribes to the upstream again.
    /// ``ErrorRouter`` cannot send anything again, so through it the choice sends no request.
    case preparesRetry
}
