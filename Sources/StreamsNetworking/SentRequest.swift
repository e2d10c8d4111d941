import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a failure needs to know about the request it came from to decide whether sending it
/// again is safe: its method, and whether it carries an `Idempotency-Key`.
///
/// A request that may have reached the server (a timeout, a connection lost during the
/// exchange, a 5xx) is retried by default only if repeating it is safe: its method is
/// idempotent (GET, HEAD, OPTIONS, PUT, DELETE, TRACE) or it carries an `Idempotency-Key`
/// header, so that the server can recognise the repeat.
///
/// ```swift
/// SentRequest(URLRequest(url: url)).isSafeToRepeat                             // true: GET
/// var post = URLRequest(url: url); post.httpMethod = "POST"
/// SentRequest(post).isSafeToRepeat                                             // false
/// SentRequest(post.addingIdempotencyKey()).isSafeToRepeat                      // true
/// ```
public struct SentRequest: Sendable, Hashable, CustomStringConvertible {
    /// The methods that RFC 9110 defines as idempotent.
    public static let idempotentMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"]

    /// A request whose method nobody said: errors made by hand, in tests or mocks. It counts as
    /// safe to repeat, as every request did before methods were told apart.
    public static let unspecified = SentRequest(method: nil)

    /// The method, upper-cased; nil when unknown.
    public let method: String?
    /// Whether the request carries an `Idempotency-Key` header.
    public let hasIdempotencyKey: Bool

    /// Describes a request by its method and key.
    ///
    /// ```swift
    /// let post = SentRequest(method: "POST", hasIdempotencyKey: true)
    /// ```
    public init(method: String?, hasIdempotencyKey: Bool = false) {
        self.method = method?.uppercased()
        self.hasIdempotencyKey = hasIdempotencyKey
    }

    /// Describes a request by its method and the value of its `Idempotency-Key` header (nil when
    /// it has none): an empty value is no key. For HTTP stacks without `URLRequest`
    /// (swift-http-types' `HTTPRequest`, say).
    ///
    /// ```swift
    /// let keyField = HTTPField.Name(URLRequest.idempotencyKeyHeader)!
    /// let sent = SentRequest(method: request.method.rawValue, idempotencyKey: request.headerFields[keyField])
    /// ```
    public init(method: String?, idempotencyKey: String?) {
        self.init(method: method, hasIdempotencyKey: idempotencyKey.map { !$0.isEmpty } ?? false)
    }

    /// Describes `request` (a request without a method is a GET, as URLSession sends it).
    ///
    /// ```swift
    /// let sent = SentRequest(URLRequest(url: url))   // GET
    /// ```
    public init(_ request: URLRequest) {
        self.init(
            method: request.httpMethod ?? "GET",
            idempotencyKey: request.value(forHTTPHeaderField: URLRequest.idempotencyKeyHeader))
    }

    /// Whether sending the request again cannot do anything twice: an idempotent method, an
    /// idempotency key, or an unknown method.
    public var isSafeToRepeat: Bool {
        hasIdempotencyKey || method.map { Self.idempotentMethods.contains($0) } ?? true
    }

    /// `POST with Idempotency-Key`, `GET`, or `unspecified method`.
    public var description: String {
        (method ?? "unspecified method") + (hasIdempotencyKey ? " with Idempotency-Key" : "")
    }
}
