import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams

/// The parts of a request a client writes for every endpoint: a method, a path below the base
/// URL, query items, headers and a JSON body; ``urlRequest(relativeTo:)`` puts them together
/// with the percent-encoding each part needs.
///
/// - The path is appended to the base URL's path, one `/` between them; every character
///   outside RFC 3986's unreserved set and the path's own `/`, `:`, `@`, `!`, `$`, `&`, `'`,
///   `(`, `)`, `*`, `+`, `,`, `;`, `=` is percent-encoded (a space, `?`, `#`, `%`, non-ASCII).
/// - Query names and values are percent-encoded except for unreserved characters, so `&`,
///   `=`, `+` and spaces in a value arrive as sent.
///
/// ```swift
/// let order = APIRequest(.post, "orders", query: [URLQueryItem(name: "notify", value: "a&b")])
///     .header("Authorization", "Bearer \(token)")
///     .json(NewOrder(item: "tea"))
///     .idempotencyKey()
/// URLSession.shared.requestPublisher(for: order, relativeTo: api)   // POST https://api.example.com/v1/orders?notify=a%26b
/// ```
public struct APIRequest: Sendable {
    /// An HTTP method.
    ///
    /// ```swift
    /// let method: APIRequest.Method = .patch
    /// ```
    public struct Method: RawRepresentable, Sendable, Hashable {
        /// The method's name, upper-case.
        public let rawValue: String
        /// A method named `rawValue` (upper-cased).
        public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

        /// GET.
        public static let get = Method(rawValue: "GET")
        /// HEAD.
        public static let head = Method(rawValue: "HEAD")
        /// POST.
        public static let post = Method(rawValue: "POST")
        /// PUT.
        public static let put = Method(rawValue: "PUT")
        /// PATCH.
        public static let patch = Method(rawValue: "PATCH")
        /// DELETE.
        public static let delete = Method(rawValue: "DELETE")
        /// OPTIONS.
        public static let options = Method(rawValue: "OPTIONS")
    }

    /// The method.
    public var method: Method
    /// The path below the base URL, such as `users/42` (a leading `/` is allowed).
    public var path: String
    /// The query items, in order.
    public var query: [URLQueryItem]
    /// The headers.
    public var headers: [String: String]
    /// The body, or why it could not be made.
    public var body: Result<Data, NetworkError>?

    /// Makes a request for `path` with `method`.
    ///
    /// ```swift
    /// let search = APIRequest(.get, "search", query: [URLQueryItem(name: "q", value: "tea & cake")])
    /// ```
    public init(_ method: Method = .get, _ path: String, query: [URLQueryItem] = [], headers: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
    }

    /// The request with the header `name` set to `value`.
    ///
    /// ```swift
    /// let authorised = request.header("Authorization", "Bearer \(token)")
    /// ```
    public func header(_ name: String, _ value: String) -> APIRequest {
        var request = self
        request.headers[name] = value
        return request
    }

    /// The request with `value` encoded by `encoder` as its body and `Content-Type:
    /// application/json`; a value that cannot be encoded makes the request fail with
    /// ``NetworkError/invalidRequest(reason:)`` before anything is sent.
    ///
    /// ```swift
    /// let create = APIRequest(.post, "users").json(NewUser(name: "alice"))
    /// ```
    public func json<Body: Encodable>(_ value: Body, encoder: JSONEncoder = JSONEncoder()) -> APIRequest {
        var request = self
        request.body = Result { try encoder.encode(value) }.mapError {
            .invalidRequest(reason: "the body could not be encoded: \($0)")
        }
        request.headers["Content-Type"] = "application/json"
        return request
    }

    /// The request with an `Idempotency-Key` header (see
    /// `URLRequest.addingIdempotencyKey(_:)`): the key is fixed here, so every attempt of a
    /// retry sends the same one.
    ///
    /// ```swift
    /// let payment = APIRequest(.post, "payments").json(payment).idempotencyKey()
    /// ```
    public func idempotencyKey(_ key: String = UUID().uuidString) -> APIRequest {
        header(URLRequest.idempotencyKeyHeader, "\"\(key)\"")
    }

    /// The `URLRequest` for this request below `baseURL`, or why it cannot be made.
    ///
    /// ```swift
    /// let request = try APIRequest(.get, "users/42").urlRequest(relativeTo: api).get()
    /// ```
    public func urlRequest(relativeTo baseURL: URL) -> Result<URLRequest, NetworkError> {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true) else {
            return .failure(.invalidRequest(reason: "malformed base URL \(baseURL.absoluteString)"))
        }
        var basePath = components.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        var relative = Substring(path)
        while relative.hasPrefix("/") { relative.removeFirst() }
        let encodedPath = relative.addingPercentEncoding(withAllowedCharacters: Self.pathAllowed) ?? ""
        components.percentEncodedPath = basePath + "/" + encodedPath
        if !query.isEmpty {
            let encoded = query.map { item in
                Self.encodeQuery(item.name) + (item.value.map { "=" + Self.encodeQuery($0) } ?? "")
            }
            let existing = components.percentEncodedQuery.map { [$0] } ?? []
            components.percentEncodedQuery = (existing + encoded).joined(separator: "&")
        }
        guard let url = components.url else {
            return .failure(.invalidRequest(reason: "no URL for \(path) below \(baseURL.absoluteString)"))
        }
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        switch body {
        case .success(let data): request.httpBody = data
        case .failure(let error): return .failure(error)
        case nil: break
        }
        return .success(request)
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    private static let pathAllowed = unreserved.union(CharacterSet(charactersIn: "/:@!$&'()*+,;="))

    private static func encodeQuery(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}

extension URLSession {
    /// A publisher of `request` below `baseURL` (see ``APIRequest``); a request that cannot
    /// be made fails with ``NetworkError/invalidRequest(reason:)`` before any I/O.
    ///
    /// ```swift
    /// let user = URLSession.shared.requestPublisher(for: APIRequest(.get, "users/42"), relativeTo: api)
    ///     .validateStatus()
    ///     .decode(type: User.self, decoder: JSONDecoder())
    /// ```
    public func requestPublisher(for request: APIRequest, relativeTo baseURL: URL) -> RequestPublisher {
        RequestPublisher(session: self, request: request.urlRequest(relativeTo: baseURL))
    }
}

extension HTTPTransport {
    /// A publisher of `request` below `baseURL` over this transport (see ``APIRequest``); a
    /// request that cannot be made fails with ``NetworkError/invalidRequest(reason:)`` before
    /// any I/O.
    ///
    /// ```swift
    /// let user = transport.requestPublisher(for: APIRequest(.get, "users/42"), relativeTo: api)
    ///     .validateStatus()
    /// ```
    public func requestPublisher(for request: APIRequest, relativeTo baseURL: URL) -> HTTPRequestPublisher<Self> {
        HTTPRequestPublisher(transport: self, request: request.urlRequest(relativeTo: baseURL))
    }
}
