/// Who a call is for, as telemetry may tell it: the request's method and origin (scheme, host
/// and port), never its path, query, headers or credentials.
///
/// StreamsNetworking makes one from a `URLRequest` (`ResilienceRequestIdentity(request)`), and
/// its `resilient(_:for:scheduler:)` hands it to the pipeline; pass one to
/// `ResiliencePipeline.execute(request:_:)` for calls made otherwise.
///
/// ```swift
/// let identity = ResilienceRequestIdentity(method: "GET", origin: "https://api.example.com:443")
/// let user = try await pipeline.execute(request: identity) { _ in try await client.user(id) }
/// ```
public struct ResilienceRequestIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The method, upper-cased: `GET`, `POST`, …
    public let method: String
    /// The origin, `scheme://host:port`: no user, password, path or query.
    public let origin: String

    /// Names a request by its method and origin. Pass only an origin: whatever follows the
    /// authority (a path, a query) and any credentials before the host are dropped.
    ///
    /// ```swift
    /// let identity = ResilienceRequestIdentity(method: "post", origin: "https://pay.example.com:443")
    /// identity.method   // "POST"
    /// ```
    public init(method: String, origin: String) {
        self.method = method.uppercased()
        self.origin = Self.bareOrigin(origin)
    }

    /// `GET https://api.example.com:443`.
    ///
    /// ```swift
    /// print(ResilienceRequestIdentity(method: "GET", origin: "https://api.example.com:443"))
    /// ```
    public var description: String { "\(method) \(origin)" }

    /// `origin` without credentials, path, query or fragment.
    private static func bareOrigin(_ origin: String) -> String {
        var text = Substring(origin)
        var scheme = Substring("")
        if let separator = text.range(of: "://") {
            scheme = text[..<separator.upperBound]
            text = text[separator.upperBound...]
        }
        if let end = text.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { text = text[..<end] }
        if let at = text.lastIndex(of: "@") { text = text[text.index(after: at)...] }
        return String(scheme + text)
    }
}
