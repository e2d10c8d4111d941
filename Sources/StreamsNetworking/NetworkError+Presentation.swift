import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsRecovery

/// How a ``NetworkError`` is shown to people: a title, a plain sentence and where it comes
/// from, read by StreamsRecovery's default handler (and by anything else that shows errors)
/// through the core's `PresentableError`, and by `localizedDescription` through
/// `LocalizedError`.
///
/// ```swift
/// let error = NetworkError.notFound(HTTPErrorResponse(status: 404))
/// error.presentationTitle     // "Not Found"
/// error.presentationMessage   // "What the app asked for could not be found."
/// ```
extension NetworkError: PresentableError, LocalizedError {
    /// A short title, such as "Not Found" or "Server Busy".
    public var presentationTitle: String {
        switch self {
        case .invalidRequest: "Something Went Wrong"
        case .transport(let error, _):
            if error.code == .timedOut {
                "Connection Timed Out"
            } else if error.isSecureConnectionFailure {
                "Secure Connection Failed"
            } else if error.isOffline {
                "You Are Offline"
            } else {
                "Cannot Reach the Server"
            }
        case .invalidResponse, .decoding, .unexpectedStatus: "Unexpected Response"
        case .validation: "Invalid User Input"
        case .requiresLogin: "Signed Out"
        case .forbidden: "Not Allowed"
        case .notFound: "Not Found"
        case .conflict: "Changed Elsewhere"
        case .gone: "No Longer Available"
        case .payloadTooLarge: "Too Large"
        case .rateLimited: "Server Busy"
        case .server(let failure): failure.retryAfter == nil ? "Server Error" : "Server Busy"
        case .insecureRedirect: "Connection Not Secure"
        case .credentialRefreshFailed: "Signed Out"
        }
    }

    /// A sentence for the user, with no code-level detail: no status codes, no reason codes,
    /// no URL error numbers (see the table on ``NetworkError``).
    public var presentationMessage: String {
        switch self {
        case .invalidRequest:
            "The request could not be made."
        case .transport(let error, _):
            if error.code == .timedOut {
                "The server took too long to answer. Please try again."
            } else if error.isSecureConnectionFailure {
                "A secure connection to the server could not be made."
            } else if error.isOffline {
                "You appear to be offline. Check your connection and try again."
            } else {
                "The server could not be reached. Check your connection and try again."
            }
        case .invalidResponse:
            "The server sent an answer the app does not understand."
        case .decoding:
            "The server's answer has a format this version of the app does not understand. Please update the app."
        case .validation:
            "The server did not accept the input."
        case .requiresLogin:
            "Your session has expired. Please sign in again."
        case .forbidden:
            "You do not have permission to do this."
        case .notFound:
            "What the app asked for could not be found."
        case .conflict:
            "This was changed at the same time somewhere else. Please reload and try again."
        case .gone:
            "What the app asked for is no longer available."
        case .payloadTooLarge:
            "What you are sending is too large for the server."
        case .rateLimited(let failure):
            "The server is busy. Please try again \(failure.retryAfter.map(Self.whenToTryAgain(after:)) ?? "in a moment")."
        case .server(let failure):
            if let hint = failure.retryAfter {
                "The server is busy. Please try again \(Self.whenToTryAgain(after: hint))."
            } else {
                "The server had a problem. Please try again later."
            }
        case .unexpectedStatus(let failure):
            switch failure.status {
            case 408: "The server took too long to answer. Please try again."
            case 400..<500: "The server did not accept the request."
            default: "The server sent an answer the app does not understand."
            }
        case .insecureRedirect:
            "The server tried to move the connection to one that is not secure."
        case .credentialRefreshFailed:
            "Your session has expired. Please sign in again."
        }
    }

    /// Where it comes from: the user's input (400, 422, 403, 409, 413), a service that is not
    /// there now (transport failures, 429, 5xx), a service that answered unexpectedly (401,
    /// 404, 410, other statuses, a body of the wrong shape, TLS failures), or the app itself
    /// (a request it could not make).
    public var origin: ErrorOrigin {
        switch self {
        case .invalidRequest: .internalInconsistency
        case .transport(let error, _):
            error.isSecureConnectionFailure ? .externalSystemBehavedUnexpectedly : .externalSystemUnavailable
        case .validation, .forbidden, .conflict, .payloadTooLarge: .invalidUserInput
        case .rateLimited, .server: .externalSystemUnavailable
        case .invalidResponse, .decoding, .requiresLogin, .notFound, .gone, .unexpectedStatus, .insecureRedirect,
            .credentialRefreshFailed:
            .externalSystemBehavedUnexpectedly
        }
    }

    /// The ``presentationMessage``.
    public var errorDescription: String? { presentationMessage }

    /// When to try again after a server's `Retry-After` hint, in words for the user, rounded up
    /// so that it is never sooner than the server asked: "in a moment" below a second, then "in
    /// 20 seconds", "in 5 minutes", "in 3 hours", "in 2 days", and "later" beyond 30 days (an
    /// absurd hint, such as `RetryAfter.unbounded`, has no useful number).
    ///
    /// ```swift
    /// NetworkError.whenToTryAgain(after: .seconds(300))   // "in 5 minutes"
    /// NetworkError.whenToTryAgain(after: .seconds(61))    // "in 2 minutes"
    /// ```
    public static func whenToTryAgain(after hint: Duration) -> String {
        if hint < .seconds(1) { return "in a moment" }
        if hint > .seconds(30 * 86_400) { return "later" }
        let (whole, fraction) = hint.components
        let seconds = fraction > 0 && whole < .max ? whole + 1 : whole
        func count(_ value: Int64, _ unit: String) -> String { "in \(value) \(unit)\(value == 1 ? "" : "s")" }
        if seconds < 60 { return count(seconds, "second") }
        if seconds < 3_600 { return count((seconds + 59) / 60, "minute") }
        if seconds < 48 * 3_600 { return count((seconds + 3_599) / 3_600, "hour") }
        return count((seconds + 86_399) / 86_400, "day")
    }
}
