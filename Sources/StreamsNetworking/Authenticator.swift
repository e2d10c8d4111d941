import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams

/// Sends requests with a credential, and renews it when the server rejects it: on a 401, it
/// refreshes the credential once, however many requests were rejected at the same time, and
/// sends each of them once more with the new one. If the refresh fails, they all fail with
/// ``NetworkError/credentialRefreshFailed(reason:)`` (category `requiresLogout`).
///
/// A credential belongs to the authenticator's origin (scheme, host and port): a request to any
/// other origin is sent without it, and a redirect to another origin drops it (the
/// ``RedirectPolicy`` is applied to every request; a 401 from another origin is delivered as it
/// is). A second 401 after the replay is delivered as it is, for `validateStatus()` to report.
///
/// ```swift
/// let api = Authenticator(session: .shared, origin: URL(string: "https://api.example.com")!, provider: tokens)
/// let profile = api.requestPublisher(for: URLRequest(url: profileURL))
///     .validateStatus()
///     .decode(type: Profile.self, decoder: JSONDecoder())
/// ```
public final class Authenticator: Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// What sends the requests: a `URLSession`, or any other ``HTTPTransport``.
    public let transport: any HTTPTransport
    /// The session that sends the requests, when the transport is a `URLSession`.
    public var session: URLSession? { transport as? URLSession }
    /// What is done with redirects.
    public let redirectPolicy: RedirectPolicy
    private let origin: Origin?
    private let provider: any CredentialProvider
    private let state: LockedState<AuthenticatorStateMachine>

    /// An authenticator that sends the credentials of `provider` to `origin` (only its scheme,
    /// host and port count) through `transport`.
    ///
    /// ```swift
    /// let api = Authenticator(transport: httpClient, origin: URL(string: "https://api.example.com")!, provider: tokens)
    /// ```
    public init(
        transport: some HTTPTransport, origin: URL, provider: some CredentialProvider,
        redirectPolicy: RedirectPolicy = .default
    ) {
        self.transport = transport
        self.origin = Origin(origin)
        self.provider = provider
        self.redirectPolicy = redirectPolicy
        state = LockedState(AuthenticatorStateMachine(credential: provider.storedCredential()))
    }

    /// An authenticator that sends the credentials of `provider` to `origin` (only its scheme,
    /// host and port count) with `session`.
    ///
    /// ```swift
    /// let api = Authenticator(session: .shared, origin: URL(string: "https://api.example.com")!, provider: tokens)
    /// ```
    public convenience init(
        session: URLSession, origin: URL, provider: some CredentialProvider, redirectPolicy: RedirectPolicy = .default
    ) {
        self.init(transport: session, origin: origin, provider: provider, redirectPolicy: redirectPolicy)
    }

    /// The number of refreshes started so far.
    ///
    /// ```swift
    /// print(api.refreshCount)
    /// ```
    public var refreshCount: Int { state.withLock { $0.refreshes } }

    /// A publisher of one request, sent with the credential if it goes to the authenticator's
    /// origin; see ``Authenticator``.
    ///
    /// ```swift
    /// let body = api.requestPublisher(for: URLRequest(url: profileURL)).validateStatus()
    /// ```
    public func requestPublisher(for request: URLRequest) -> AnyPublisher<URLSession.RequestPublisher.Output, NetworkError> {
        guard let origin, Origin(request.url) == origin else {
            return send(request, with: nil)
        }
        return credential(rejecting: nil)
            .flatMap(maxPublishers: .max(1)) { [self] credential in
                send(request, with: credential).map { (output: $0, credential: credential) }
            }
            .flatMap(maxPublishers: .max(1)) { [self] sent -> AnyPublisher<URLSession.RequestPublisher.Output, NetworkError> in
                // A 401 from another origin, after a redirect, did not reject this credential.
                guard sent.output.response.statusCode == 401, Origin(sent.output.response.url) == origin else {
                    return Just(sent.output).setFailureType(to: NetworkError.self).eraseToAnyPublisher()
                }
                return credential(rejecting: sent.credential)
                    .flatMap(maxPublishers: .max(1)) { [self] in send(request, with: $0) }
                    .eraseToAnyPublisher()
            }
            .eraseToAnyPublisher()
    }

    /// A GET of `url`; see ``requestPublisher(for:)-(URLRequest)``.
    ///
    /// ```swift
    /// let body = api.requestPublisher(for: profileURL).validateStatus()
    /// ```
    public func requestPublisher(for url: URL) -> AnyPublisher<URLSession.RequestPublisher.Output, NetworkError> {
        requestPublisher(for: URLRequest(url: url))
    }

    /// `request` with `credential`, or without any `Authorization` header if there is none.
    private func send(_ request: URLRequest, with credential: Credential?) -> AnyPublisher<NetworkResponse<Data>, NetworkError> {
        var request = request
        request.setValue(credential?.authorization, forHTTPHeaderField: "Authorization")
        return Self.publisher(of: request, on: transport, redirectPolicy: redirectPolicy)
    }

    /// The request publisher of `transport`, whatever its type.
    private static func publisher(
        of request: URLRequest, on transport: some HTTPTransport, redirectPolicy: RedirectPolicy
    ) -> AnyPublisher<NetworkResponse<Data>, NetworkError> {
        transport.requestPublisher(for: request, redirectPolicy: redirectPolicy).eraseToAnyPublisher()
    }

    /// The credential to send, once per subscription: the current one, or the outcome of the
    /// refresh under way or started now (when `rejected` was just refused, or there is none).
    private func credential(rejecting rejected: Credential?) -> Deferred<Future<Credential, NetworkError>> {
        Deferred { [self] in
            Future { [self] promise in
                let action = state.withLock { machine in
                    if let rejected { machine.rejected(rejected, promise) } else { machine.credentialNeeded(promise) }
                }
                switch action {
                case .use(let credential, let waiter): waiter(.success(credential))
                case .refresh(let number, let rejected): refresh(number, rejected)
                case .fail(let error, let waiter): waiter(.failure(error))
                case .wait: break
                }
            }
        }
    }

    /// Runs refresh number `number` and tells every waiter its outcome: the first credential,
    /// or the failure.
    private func refresh(_ number: Int, _ rejected: Credential?) {
        provider.refresh(rejected: rejected).subscribe(
            Subscribers.Sink(
                receiveCompletion: { [self] completion in
                    let reason =
                        switch completion {
                        case .failure(let error): error.description
                        case .finished: "the refresh ended without a credential"
                        }
                    finishRefresh(number, .failure(.credentialRefreshFailed(reason: reason)))
                },
                receiveValue: { [self] credential in finishRefresh(number, .success(credential)) }))
    }

    private func finishRefresh(_ number: Int, _ outcome: Result<Credential, NetworkError>) {
        guard case .resume(let waiters, let outcome) = state.withLock({ $0.refreshed(number, outcome) }) else { return }
        for waiter in waiters { waiter(outcome) }
    }

    /// The origin its credentials go to, with no credential shown.
    public var description: String { "Authenticator(\(origin?.description ?? "<no origin>"))" }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The origin and the refresh count; never the credential.
    public var customMirror: Mirror {
        Mirror(self, children: ["origin": origin?.description as Any, "refreshCount": refreshCount])
    }
}
