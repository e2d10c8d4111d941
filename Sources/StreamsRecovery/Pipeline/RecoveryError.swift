import Streams

/// Why a `recover(through:presenter:)` stream ended without a value, as `asResult()` reports
/// it: the user cancelled, or the error came through.
///
/// Its description and mirror show the error it lets through as its
/// `redactedDescription`: as it describes itself if it is a `RedactingError` (such as
/// `NetworkError`), otherwise by its type, domain and code alone, so that printing a
/// `RecoveryError<URLError>` shows no failing URL.
///
/// ```swift
/// switch result {
/// case .success(let profile): show(profile)
/// case .failure(.cancelled): showPlaceholder()            // the user dismissed the error
/// case .failure(.failed(let error)): showErrorScreen(error)
/// }
/// ```
public enum RecoveryError<Failure: Error>: Error, RedactingError {
    /// The user chose "Cancel" (an option whose decision is ``RecoveryDecision/cancel``).
    case cancelled
    /// The error was let through ("OK", "Log Out", or no answer).
    case failed(Failure)
}

extension RecoveryError: CustomStringConvertible, CustomReflectable {
    /// `cancelled`, or `failed` with the error as its `redactedDescription`.
    ///
    /// ```swift
    /// print(RecoveryError<URLError>.failed(URLError(.timedOut)))
    /// // failed(URLError(domain: NSURLErrorDomain, code: -1001))
    /// ```
    public var description: String {
        switch self {
        case .cancelled: "cancelled"
        case .failed(let error): "failed(\(error.redactedDescription))"
        }
    }

    /// The case, for `dump`: the error is reflected as its `redactedDescription`, never as
    /// itself.
    ///
    /// ```swift
    /// dump(RecoveryError<URLError>.failed(URLError(.timedOut)))
    /// // ▿ failed(URLError(domain: NSURLErrorDomain, code: -1001))
    /// //   - failed: "URLError(domain: NSURLErrorDomain, code: -1001)"
    /// ```
    public var customMirror: Mirror {
        switch self {
        case .cancelled: Mirror(self, children: [], displayStyle: .enum)
        case .failed(let error): Mirror(self, children: ["failed": error.redactedDescription], displayStyle: .enum)
        }
    }
}

extension RecoveryError: Equatable where Failure: Equatable {}
