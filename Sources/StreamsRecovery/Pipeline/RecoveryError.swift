/// Why a `recover(through:presenter:)` stream ended without a value, as `asResult()` reports
/// it: the user cancelled, or the error came through.
///
/// ```swift
/// switch result {
/// case .success(let profile): show(profile)
/// case .failure(.cancelled): showPlaceholder()            // the user dismissed the error
/// case .failure(.failed(let error)): showErrorScreen(error)
/// }
/// ```
public enum RecoveryError<Failure: Error>: Error {
    /// The user chose "Cancel" (an option whose decision is ``RecoveryDecision/cancel``).
    case cancelled
    /// The error was let through ("OK", "Log Out", or no answer).
    case failed(Failure)
}

extension RecoveryError: Equatable where Failure: Equatable {}
