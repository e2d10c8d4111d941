import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams

/// Everything that can go wrong with an HTTP request, in one type a pipeline can act on.
///
/// It tells users what happened in plain words (`LocalizedError`), tells `retry` what is worth
/// retrying (`CategorizedError`, with the HTTP defaults of the retry specification), and carries
/// the server's `Retry-After` hint (`RetryAfterProviding`).
///
/// ```swift
/// URLSession.shared.requestPublisher(for: url)
///     .validateStatus()
///     .decode(type: Availability.self, decoder: JSONDecoder())
///     .retry(2, backoff: .exponential(), scheduler: DispatchQueue.main)
///     .sink(receiveCompletion: { if case .failure(let error) = $0 { show(error.localizedDescription) } },
///           receiveValue: { show($0) })
/// ```
///
/// No description of it (`description`, `debugDescription`, `dump`) shows a secret: credentials
/// and secret query items read `<redacted>`.
public enum NetworkError: Error, CategorizedError, RetryAfterProviding, LocalizedError, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    /// The request could not be made, such as a malformed URL.
    case invalidRequest(reason: String)
    /// The request did not get a response: no connection, a timeout, a lost connection.
    case transport(URLError)
    /// The response was not an HTTP response.
    case invalidResponse
    /// The server rejected the input (HTTP 400), with its reason if it gave one.
    case validation(reason: String?)
    /// The response body did not have the expected shape.
    case decoding(DecodingError)
    /// The server answered with an error status, its reason if it gave one, and when to try
    /// again if it said.
    case server(status: Int, reason: String?, retryAfter: Duration?)
    /// The server redirected an `https` request to a URL that is not `https`; the redirect was
    /// not followed (see ``RedirectPolicy``).
    case insecureRedirect(from: URL, to: URL)
    /// The credential was rejected and could not be renewed (see ``Authenticator``): the user
    /// has to sign in again.
    case credentialRefreshFailed(reason: String)

    /// What to do about it by default: transport failures before a complete response (see
    /// `URLError.category`) and statuses 408, 429, 500, 502, 503 and 504 are retryable; 401
    /// requires signing in again; everything else is not retryable.
    public var category: ErrorCategory {
        switch self {
        case .transport(let error):
            error.category
        case .server(let status, _, _):
            switch status {
            case 401: .requiresLogout
            case 408, 429, 500, 502, 503, 504: .retryable
            default: .nonRetryable
            }
        case .invalidRequest, .invalidResponse, .validation, .decoding, .insecureRedirect:
            .nonRetryable
        case .credentialRefreshFailed:
            .requiresLogout
        }
    }

    /// The server's `Retry-After` hint, if it sent one.
    public var retryAfter: Duration? {
        if case .server(_, _, let retryAfter) = self { retryAfter } else { nil }
    }

    /// A sentence for the user, with no code-level detail: no status codes, no reason codes, no
    /// URL error numbers.
    public var errorDescription: String? {
        switch self {
        case .invalidRequest:
            "The request could not be made."
        case .transport(let error):
            if error.code == .timedOut {
                "The server took too long to answer. Please try again."
            } else if error.isSecureConnectionFailure {
                "A secure connection to the server could not be made."
            } else if [.notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff].contains(error.code) {
                "You appear to be offline. Check your connection and try again."
            } else {
                "The server could not be reached. Check your connection and try again."
            }
        case .invalidResponse:
            "The server sent an answer the app does not understand."
        case .validation:
            "The server did not accept the input."
        case .decoding:
            "The server's answer has a format this version of the app does not understand. Please update the app."
        case .insecureRedirect:
            "The server tried to move the connection to one that is not secure."
        case .credentialRefreshFailed:
            "Your session has expired. Please sign in again."
        case .server(let status, _, let retryAfter):
            switch (status, retryAfter) {
            case (401, _): "Your session has expired. Please sign in again."
            case (403, _): "You do not have permission to do this."
            case (404, _), (410, _): "What the app asked for could not be found."
            case (_, let hint?): "The server is busy. Please try again \(Self.whenToTryAgain(after: hint))."
            case (408, nil), (429, nil): "The server is busy. Please try again in a moment."
            case (400..<500, nil): "The server did not accept the request."
            default: "The server had a problem. Please try again later."
            }
        }
    }

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
        let seconds = Self.seconds(hint)
        func count(_ value: Int64, _ unit: String) -> String { "in \(value) \(unit)\(value == 1 ? "" : "s")" }
        if seconds < 60 { return count(seconds, "second") }
        if seconds < 3_600 { return count((seconds + 59) / 60, "minute") }
        if seconds < 48 * 3_600 { return count((seconds + 3_599) / 3_600, "hour") }
        return count((seconds + 86_399) / 86_400, "day")
    }

    /// A description for developers, with the details: the URL error, the decoding path, the
    /// status and the server's reason; secrets (credentials, secret query items) read
    /// `<redacted>`.
    public var description: String {
        switch self {
        case .invalidRequest(let reason): "invalid request: \(Redaction.text(reason))"
        case .transport(let error): "transport error: \(error.code.rawValue) \(Redaction.text(error.localizedDescription))"
        case .invalidResponse: "invalid response: not HTTP"
        case .validation(let reason): "validation error (400): \(reason.map(Redaction.text) ?? "no reason given")"
        case .decoding(let error): "decoding error: \(Redaction.text(Self.describe(error)))"
        case let .server(status, reason, retryAfter):
            "server error \(status): \(reason.map(Redaction.text) ?? "no reason given")"
                + (retryAfter.map { ", retry after \(Self.seconds($0)) s" } ?? "")
        case let .insecureRedirect(from, to):
            "insecure redirect refused: from \(Redaction.url(from)) to \(Redaction.url(to))"
        case .credentialRefreshFailed(let reason): "credential refresh failed: \(Redaction.text(reason))"
        }
    }

    /// The same as ``description``: no secret shown.
    public var debugDescription: String { description }

    /// The case and its description, for `dump`: the associated values are not reflected, so
    /// that no URL error's failing URL or server text shows a secret.
    public var customMirror: Mirror {
        let name =
            switch self {
            case .invalidRequest: "invalidRequest"
            case .transport: "transport"
            case .invalidResponse: "invalidResponse"
            case .validation: "validation"
            case .decoding: "decoding"
            case .server: "server"
            case .insecureRedirect: "insecureRedirect"
            case .credentialRefreshFailed: "credentialRefreshFailed"
            }
        return Mirror(self, children: [name: description], displayStyle: .enum)
    }

    /// Whole seconds, rounded up, saturating.
    private static func seconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return attoseconds > 0 && seconds < .max ? seconds + 1 : seconds
    }

    /// The decoding error with its coding path, such as `keyNotFound isAvailable at <root>`.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map(\.stringValue).joined(separator: ".")
            return keys.isEmpty ? "<root>" : keys
        }
        switch error {
        case .keyNotFound(let key, let context): return "keyNotFound \(key.stringValue) at \(path(context))"
        case .typeMismatch(let type, let context): return "typeMismatch \(type) at \(path(context))"
        case .valueNotFound(let type, let context): return "valueNotFound \(type) at \(path(context))"
        case .dataCorrupted(let context): return "dataCorrupted at \(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

// The associated values are immutable; `DecodingError` is not marked `Sendable` only because
// its context holds `CodingKey` existentials.
extension NetworkError: @unchecked Sendable {}

extension NetworkError {
    /// Checks an HTTP response: a 2xx status gives the body; any other status becomes the
    /// matching error, with the reason from a JSON body `{"error": true, "reason": "..."}` when
    /// there is one, and the `Retry-After` hint (a date is measured against the response's own
    /// `Date` header, so that a wrong client clock does not matter).
    ///
    /// ```swift
    /// let body = try NetworkError.validate(data: data, response: response).get()
    /// ```
    public static func validate(data: Data, response: HTTPURLResponse) -> Result<Data, NetworkError> {
        let status = response.statusCode
        guard !(200..<300).contains(status) else { return .success(data) }
        let reason = (try? JSONDecoder().decode(ErrorBody.self, from: data))?.reason
        if status == 400 {
            return .failure(.validation(reason: reason))
        }
        let clientNow = Date()
        let serverNow = response.value(forHTTPHeaderField: "Date").flatMap { RetryAfter.date($0, now: clientNow) } ?? clientNow
        let retryAfter = response.value(forHTTPHeaderField: "Retry-After").flatMap { RetryAfter.parse($0, now: serverNow) }
        return .failure(.server(status: status, reason: reason, retryAfter: retryAfter))
    }

    /// The JSON error body servers send: `{"error": true, "reason": "..."}`.
    private struct ErrorBody: Decodable {
        let reason: String?
    }
}
