import StreamsNetworking

/// The credentials of a client nobody signed in to: none stored, and a refresh that ends
/// without one, so that a request that needs a token fails with
/// `NetworkError.credentialRefreshFailed` (the default handler logs out).
struct SignedOut: CredentialProvider {
    func storedCredential() -> Credential? { nil }

    func refresh(rejected: Credential?) -> AnyPublisher<Credential, NetworkError> {
        Empty().eraseToAnyPublisher()
    }
}
