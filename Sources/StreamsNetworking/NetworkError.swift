import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams

/// Everything that can go wrong with an HTTP request, in one type a pipeline can act on.
///
/// It tells users what happened in plain words (`PresentableError`, `LocalizedError`), tells
/// `retry` what is worth retrying (`CategorizedError`, with HTTP's rules about which requests
/// may be sent twice), and carries the server's hint for when to try again
/// (`RetryAfterProviding`).
///
/// | status or failure | case | category | default message |
/// | --- | --- | --- | --- |
/// | 400, 422 | ``validation(_:)`` (with field errors) | not retryable | The server did not accept the input. |
/// | 401 | ``requiresLogin(_:)`` | requires logout | Your session has expired. Please sign in again. |
/// | 403 | ``forbidden(_:)`` | not retryable | You do not have permission to do this. |
/// | 404 | ``notFound(_:)`` | not retryable | What the app asked for could not be found. |
/// | 409 | ``conflict(_:)`` | not retryable | This was changed at the same time somewhere else. Please reload and try again. |
/// | 410 | ``gone(_:)`` | not retryable | What the app asked for is no longer available. |
/// | 413 | ``payloadTooLarge(_:)`` | not retryable | What you are sending is too large for the server. |
/// | 429 | ``rateLimited(_:)`` | retryable | The server is busy. Please try again in a moment. |
/// | 500, 502, 503, 504 | ``server(_:)`` | retryable if safe to repeat | The server had a problem. Please try again later. |
/// | other 5xx | ``server(_:)`` | not retryable | The server had a problem. Please try again later. |
/// | 408 | ``unexpectedStatus(_:)`` | retryable | The server took too long to answer. Please try again. |
/// | other statuses | ``unexpectedStatus(_:)`` | not retryable | The server did not accept the request. |
/// | no connection, DNS, refused | ``transport(_:request:)`` | retryable | The server could not be reached. Check your connection and try again. |
/// | timeout, connection lost | ``transport(_:request:)`` | retryable if safe to repeat | The server took too long to answer. Please try again. |
/// | body of the wrong shape | ``decoding(_:)`` | not retryable | The server's answer has a format this version of the app does not understand. Please update the app. |
/// | redirect from `https` to `http` | ``insecureRedirect(from:to:)`` | not retryable | The server tried to move the connection to one that is not secure. |
/// | credential refresh failed | ``credentialRefreshFailed(reason:)`` | requires logout | Your session has expired. Please sign in again. |
///
/// "Safe to repeat" (``SentRequest/isSafeToRepeat``): an idempotent method or an
/// `Idempotency-Key` header. A server hint (`Retry-After`) turns a busy message into "Please try
/// again in 5 minutes."
///
/// ```swift
/// URLSession.shared.requestPublisher(for: url)
///     .validateStatus()
///     .decode(type: Availability.self, decoder: JSONDecoder())
///     .retry(2, backoff: .exponential(), scheduler: DispatchQueue.main)
///     .sink(receiveCompletion: { if case .failure(let error) = $0 { show(error.presentationMessage) } },
///           receiveValue: { show($0) })
/// ```
///
/// No description of it (`description`, `debugDescription`, `dump`) shows a secret: credentials
/// and secret query items read `<redacted>`. It is a `RedactingError` (Streams), so the core's
/// events and error wrappers (`ResilienceEvent`, `ResilienceError`, `RetryAttempt`) show this
/// redacted description of it.
public enum NetworkError: Error, CategorizedError, RetryAfterProviding, RedactingError, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    /// The request could not be made, such as a malformed URL or a body that could not be
    /// encoded.
    case invalidRequest(reason: String)
    /// The request did not get a response: no connection, a timeout, a lost connection.
    case transport(URLError, request: SentRequest = .unspecified)
    /// The response was not an HTTP response.
    case invalidResponse
    /// The response body did not have the expected shape.
    case decoding(DecodingError)
    /// 400 or 422: the server rejected the input, with field errors if it gave them.
    case validation(HTTPErrorResponse)
    /// 401: the credentials are missing or no longer valid; the user must sign in again.
    case requiresLogin(HTTPErrorResponse)
    /// 403: the user may not do this.
    case forbidden(HTTPErrorResponse)
    /// 404: nothing is there.
    case notFound(HTTPErrorResponse)
    /// 409: the request conflicts with the resource's current state.
    case conflict(HTTPErrorResponse)
    /// 410: it was there and is gone for good.
    case gone(HTTPErrorResponse)
    /// 413: the request's body is too large for the server.
    case payloadTooLarge(HTTPErrorResponse)
    /// 429: too many requests; the hint says when to come back.
    case rateLimited(HTTPErrorResponse)
    /// 5xx: the server failed.
    case server(HTTPErrorResponse)
    /// Any other status outside 2xx (1xx, 3xx, 408 and the other 4xx).
    case unexpectedStatus(HTTPErrorResponse)
    /// The server redirected an `https` request to a URL that is not `https`; the redirect was
    /// not followed (see ``RedirectPolicy``).
    case insecureRedirect(from: URL, to: URL)
    /// The credential was rejected and could not be renewed (see ``Authenticator``): the user
    /// has to sign in again.
    case credentialRefreshFailed(reason: String)

    /// The error for an HTTP response with `failure.status`, which is not a 2xx.
    ///
    /// ```swift
    /// NetworkError(status: HTTPErrorResponse(status: 404))   // .notFound
    /// ```
    public init(status failure: HTTPErrorResponse) {
        switch failure.status {
        case 400, 422: self = .validation(failure)
        case 401: self = .requiresLogin(failure)
        case 403: self = .forbidden(failure)
        case 404: self = .notFound(failure)
        case 409: self = .conflict(failure)
        case 410: self = .gone(failure)
        case 413: self = .payloadTooLarge(failure)
        case 429: self = .rateLimited(failure)
        case 500..<600: self = .server(failure)
        default: self = .unexpectedStatus(failure)
        }
    }

    /// The HTTP response of a status error; nil for the other cases.
    public var errorResponse: HTTPErrorResponse? {
        switch self {
        case .validation(let failure), .requiresLogin(let failure), .forbidden(let failure), .notFound(let failure),
            .conflict(let failure), .gone(let failure), .payloadTooLarge(let failure), .rateLimited(let failure),
            .server(let failure), .unexpectedStatus(let failure):
            failure
        case .invalidRequest, .transport, .invalidResponse, .decoding, .insecureRedirect, .credentialRefreshFailed:
            nil
        }
    }

    /// The status code of a status error; nil for the other cases.
    public var status: Int? { errorResponse?.status }

    /// The request that failed, where it is known.
    public var request: SentRequest? {
        if case .transport(_, let request) = self { request } else { errorResponse?.request }
    }

    /// What to do about it by default (see the table above):
    /// - a transport failure before the request was sent (no connection, DNS, refused) is
    ///   retryable for any method; one that may have reached the server (a timeout, a
    ///   connection lost during the exchange) only if the request is safe to repeat;
    /// - 500, 502, 503 and 504 are retryable if the request is safe to repeat; 408 and 429
    ///   (the server did not act on the request) always;
    /// - 401 requires signing in again;
    /// - everything else is not retryable.
    public var category: ErrorCategory {
        switch self {
        case .transport(let error, let request):
            let category = error.category
            guard category == .retryable else { return category }
            return error.failedBeforeSending || request.isSafeToRepeat ? .retryable : .nonRetryable
        case .server(let failure):
            return [500, 502, 503, 504].contains(failure.status) && failure.request.isSafeToRepeat ? .retryable : .nonRetryable
        case .rateLimited:
            return .retryable
        case .unexpectedStatus(let failure):
            return failure.status == 408 ? .retryable : .nonRetryable
        case .requiresLogin, .credentialRefreshFailed:
            return .requiresLogout
        case .invalidRequest, .invalidResponse, .decoding, .validation, .forbidden, .notFound, .conflict, .gone,
            .payloadTooLarge, .insecureRedirect:
            return .nonRetryable
        }
    }

    /// The server's hint for when to try again, if it sent one.
    public var retryAfter: Duration? { errorResponse?.retryAfter }

    /// A description for developers, with the details: the URL error, the decoding path, the
    /// status, the method and the server's reason; secrets (credentials, secret query items)
    /// read `<redacted>`.
    public var description: String {
        switch self {
        case .invalidRequest(let reason): "invalid request: \(Redaction.text(reason))"
        case .transport(let error, let request):
            "transport error: \(error.code.rawValue) \(Redaction.text(error.localizedDescription)) (\(request))"
        case .invalidResponse: "invalid response: not HTTP"
        case .decoding(let error): "decoding error: \(Redaction.text(Self.describe(error)))"
        case .validation(let failure): "validation error \(failure)"
        case .requiresLogin(let failure): "requires login \(failure)"
        case .forbidden(let failure): "forbidden \(failure)"
        case .notFound(let failure): "not found \(failure)"
        case .conflict(let failure): "conflict \(failure)"
        case .gone(let failure): "gone \(failure)"
        case .payloadTooLarge(let failure): "payload too large \(failure)"
        case .rateLimited(let failure): "rate limited \(failure)"
        case .server(let failure): "server error \(failure)"
        case .unexpectedStatus(let failure): "unexpected status \(failure)"
        case let .insecureRedirect(from, to):
            "insecure redirect refused: from \(Redaction.url(from)) to \(Redaction.url(to))"
        case .credentialRefreshFailed(let reason): "credential refresh failed: \(Redaction.text(reason))"
        }
    }

    /// The same as ``description``: no secret shown.
    public var debugDescription: String { description }

    /// The case and its description, for `dump`: the associated values are not reflected, so
    /// that no URL error's failing URL, header or server text shows a secret.
    public var customMirror: Mirror {
        let name =
            switch self {
            case .invalidRequest: "invalidRequest"
            case .transport: "transport"
            case .invalidResponse: "invalidResponse"
            case .decoding: "decoding"
            case .validation: "validation"
            case .requiresLogin: "requiresLogin"
            case .forbidden: "forbidden"
            case .notFound: "notFound"
            case .conflict: "conflict"
            case .gone: "gone"
            case .payloadTooLarge: "payloadTooLarge"
            case .rateLimited: "rateLimited"
            case .server: "server"
            case .unexpectedStatus: "unexpectedStatus"
            case .insecureRedirect: "insecureRedirect"
            case .credentialRefreshFailed: "credentialRefreshFailed"
            }
        return Mirror(self, children: [name: description], displayStyle: .enum)
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
