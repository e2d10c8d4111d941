import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams

/// Where an ``Authenticator`` gets its credentials: the one stored from an earlier sign-in, and
/// a new one when the server rejects the current one.
///
/// The authenticator asks for a refresh at most once at a time, however many requests were
/// rejected together, and sends the new credential only to its own origin.
///
/// ```swift
/// struct TokenStore: CredentialProvider {
///     let keychain: Keychain
///     let auth: AuthAPI
///
///     func storedCredential() -> Credential? {
///         keychain.accessToken.map(Credential.bearer)
///     }
///
///     func refresh(rejected: Credential?) -> AnyPublisher<Credential, NetworkError> {
///         auth.refresh(using: keychain.refreshToken)          // POST /oauth/token
///             .handleEvents(receiveOutput: { keychain.accessToken = $0.accessToken })
///             .map { Credential.bearer($0.accessToken) }
///             .eraseToAnyPublisher()
///     }
/// }
/// ```
public protocol CredentialProvider: Sendable {
    /// The credential to start with, or nil to refresh before the first request.
    func storedCredential() -> Credential?

    /// A new credential, after the server rejected `rejected` with 401 (nil if there was no
    /// credential yet). A failure, or an end without a credential, fails every request waiting
    /// for it with ``NetworkError/credentialRefreshFailed(reason:)``, whose category is
    /// `requiresLogout`.
    func refresh(rejected: Credential?) -> AnyPublisher<Credential, NetworkError>
}
