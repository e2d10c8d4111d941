import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams

/// An HTTP response whose status is not a success, as a ``NetworkError`` carries it: the
/// status, what the server said in the body, its hint for when to try again, the response
/// itself (headers) and the request it answers.
///
/// ```swift
/// if case .rateLimited(let failure) = error {
///     print(failure.status, failure.retryAfter ?? .zero, failure.header("RateLimit") ?? "")
/// }
/// ```
public struct HTTPErrorResponse: Sendable, CustomStringConvertible {
    /// The status code.
    public let status: Int
    /// What the body said, if it was one of the shapes ``ProblemDetails`` reads (or the
    /// caller's parser read it) and no longer than ``ProblemDetails/parsingLimit``.
    public let problem: ProblemDetails?
    /// When to try again: the `Retry-After` header when the response has a valid one, and
    /// otherwise, on 429 and 503, the rate-limit headers (``RateLimitHint``).
    public let retryAfter: Duration?
    /// The request it answers.
    public let request: SentRequest
    /// The response, with its headers; nil for a failure made by hand.
    public let response: HTTPURLResponse?

    /// Makes a failure; a response is optional so that tests and mocks can make one.
    ///
    /// ```swift
    /// let failure = HTTPErrorResponse(status: 404, problem: ProblemDetails(detail: "No such user"))
    /// ```
    public init(
        status: Int, problem: ProblemDetails? = nil, retryAfter: Duration? = nil, request: SentRequest = .unspecified,
        response: HTTPURLResponse? = nil
    ) {
        self.status = status
        self.problem = problem
        self.retryAfter = retryAfter
        self.request = request
        self.response = response
    }

    /// The server's reason: the problem's detail, or else its title.
    public var reason: String? { problem?.reason }

    /// The field errors the server gave, if any.
    public var fieldErrors: [ProblemDetails.FieldError] { problem?.fieldErrors ?? [] }

    /// When to try again after a response with `status`, from its headers (`header` looks one up
    /// by name, case-insensitively): the wait that `Retry-After` asks for (delta-seconds or an
    /// HTTP-date, on any status), and only when it gives none, on 429 and 503, the wait of the
    /// rate-limit headers (``RateLimitHint``); nil when none gives one. `Retry-After` wins when
    /// both are present, as the IETF RateLimit header fields draft says: it is the server's
    /// answer to this request, the reset only when the quota refills. Dates and instants are
    /// measured against the response's own `Date` header when it has one, so that a wrong
    /// client clock does not matter, and against `now` otherwise.
    ///
    /// ``NetworkError/validate(data:response:request:errorBody:)`` reads ``retryAfter`` with it;
    /// an HTTP stack without `HTTPURLResponse` (swift-http-types' `HTTPFields`, say) reads the
    /// same hint from its own headers.
    ///
    /// ```swift
    /// let wait = HTTPErrorResponse.retryAfterHint(status: 503) { name in
    ///     HTTPField.Name(name).flatMap { response.headerFields[$0] }
    /// }
    /// ```
    public static func retryAfterHint(status: Int, now: Date = Date(), header: (String) -> String?) -> Duration? {
        let serverNow = header("Date").flatMap { RetryAfter.date($0, now: now) } ?? now
        if let value = header("Retry-After"), let hint = RetryAfter.parse(value, now: serverNow) {
            return hint
        }
        guard status == 429 || status == 503 else { return nil }
        return RateLimitHint.wait(now: serverNow, header: header)
    }

    /// The value of the header `name` (case-insensitive), or nil.
    ///
    /// ```swift
    /// let remaining = failure.header("X-RateLimit-Remaining")
    /// ```
    public func header(_ name: String) -> String? {
        response?.value(forHTTPHeaderField: name)
    }

    /// `404 (GET): No such user`; a secret the server echoed (`token=…`) reads `<redacted>`.
    public var description: String {
        "\(status) (\(request))" + (reason.map { ": \(Redaction.text($0))" } ?? "")
            + (fieldErrors.isEmpty
                ? ""
                : " [\(fieldErrors.map(\.description).joined(separator: "; "))]")
            + (retryAfter.map { ", retry after \($0)" } ?? "")
    }
}
