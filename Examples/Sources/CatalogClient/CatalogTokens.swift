import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StreamsNetworking
import Synchronization

/// The customer's tokens, and how to renew them: the ``CatalogClient``'s `Authenticator` sends
/// the access token as `Authorization: Bearer …` and, when the server answers 401, asks for one
/// refresh (however many requests were rejected at once), which trades the refresh token for a
/// new access token at `POST /auth/token`. A refresh the server refuses fails every waiting
/// request with `NetworkError.credentialRefreshFailed`, which StreamsRecovery's default handler
/// answers by logging out.
///
/// ```swift
/// let tokens = CatalogTokens(baseURL: api, accessToken: keychain.accessToken, refreshToken: keychain.refreshToken)
/// let client = CatalogClient(baseURL: api, scheduler: DispatchQueue(label: "retries"), credentials: tokens)
/// ```
public final class CatalogTokens: CredentialProvider {
    private struct Tokens {
        var access: String?
        var refreshes = 0
    }

    private struct TokenRequest: Encodable {
        let refreshToken: String
    }

    private struct TokenResponse: Decodable {
        let accessToken: String
    }

    /// The API's base URL; the refresh goes to `auth/token` below it.
    public let baseURL: URL
    /// The session the refresh goes through.
    public let session: URLSession
    private let refreshToken: String
    private let tokens: Mutex<Tokens>

    /// Tokens from an earlier sign-in: `accessToken` (nil to refresh before the first request)
    /// and the `refreshToken` that renews it.
    ///
    /// ```swift
    /// let tokens = CatalogTokens(baseURL: api, accessToken: "expired-token", refreshToken: "demo-refresh-token")
    /// ```
    public init(
        baseURL: URL, session: URLSession = URLSession(configuration: .ephemeral), accessToken: String?,
        refreshToken: String
    ) {
        self.baseURL = baseURL
        self.session = session
        self.refreshToken = refreshToken
        tokens = Mutex(Tokens(access: accessToken))
    }

    /// The access token in use: the stored one, or the latest the server gave.
    ///
    /// ```swift
    /// keychain.accessToken = tokens.accessToken
    /// ```
    public var accessToken: String? { tokens.withLock { $0.access } }

    /// How many refreshes the server answered with a new access token.
    ///
    /// ```swift
    /// print(tokens.refreshes)   // 1 after ten requests met one expired token together
    /// ```
    public var refreshes: Int { tokens.withLock { $0.refreshes } }

    /// The stored access token as a bearer credential.
    public func storedCredential() -> Credential? {
        accessToken.map(Credential.bearer)
    }

    /// Trades the refresh token for a new access token, and keeps it.
    public func refresh(rejected: Credential?) -> AnyPublisher<Credential, NetworkError> {
        session.requestPublisher(
            for: APIRequest(.post, "auth/token").json(TokenRequest(refreshToken: refreshToken)), relativeTo: baseURL
        )
        .validateStatus()
        .decode(type: TokenResponse.self, decoder: JSONDecoder())
        .map { [self] response in
            tokens.withLock { stored in
                stored.access = response.accessToken
                stored.refreshes += 1
            }
            return Credential.bearer(response.accessToken)
        }
        .eraseToAnyPublisher()
    }
}
