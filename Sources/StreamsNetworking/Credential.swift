import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What an ``Authenticator`` sends in the `Authorization` header of its requests, such as a
/// bearer token. No description of it shows its value.
///
/// ```swift
/// let credential = Credential.bearer(tokens.accessToken)
/// print(credential)   // Credential(<redacted>)
/// ```
public struct Credential: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The value of the `Authorization` header, such as `Bearer eyJhbGciOi...`.
    public let authorization: String

    /// A credential sent as the `Authorization` header value `authorization`.
    ///
    /// ```swift
    /// let credential = Credential(authorization: "Basic \(Data("user:pass".utf8).base64EncodedString())")
    /// ```
    public init(authorization: String) {
        self.authorization = authorization
    }

    /// A bearer token (RFC 6750): `Authorization: Bearer <token>`.
    ///
    /// ```swift
    /// let credential = Credential.bearer("eyJhbGciOi...")
    /// ```
    public static func bearer(_ token: String) -> Credential {
        Credential(authorization: "Bearer \(token)")
    }

    /// `Credential(<redacted>)`.
    public var description: String { "Credential(\(Redaction.placeholder))" }

    /// `Credential(<redacted>)`.
    public var debugDescription: String { description }

    /// One child, `authorization`, redacted.
    public var customMirror: Mirror { Mirror(self, children: ["authorization": Redaction.placeholder]) }
}
