/// What a pipeline should do about an error, by default.
///
/// ```swift
/// switch error.resolveCategory() {
/// case .retryable: scheduleRetry()
/// case .nonRetryable: showMessage(error)
/// case .requiresLogout: logOut()
/// }
/// ```
public enum ErrorCategory: Sendable, Hashable {
    /// Trying again may succeed: a timeout, a lost connection, a busy server.
    case retryable
    /// Trying again gives the same result: invalid input, a missing resource, a decoding error.
    case nonRetryable
    /// The credentials are no longer valid: the user must sign in again.
    case requiresLogout
}
