#if canImport(Glibc)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsNetworking
import StreamsTesting

/// The loopback integration suite that every ``HTTPTransport`` passes: redirects and the
/// redirect policy, the method-aware retry (timeouts, refused connections, idempotency keys),
/// the resilience pipeline's repeat safety (attempt timeouts, hedging) and `Retry-After`'s
/// precedence, the `Authenticator` (single-flight refresh, credentials per origin), transport failures, the
/// typed pipeline and cancellation, error bodies, statuses and rate-limit hints, and secrets
/// kept out of every string made of a failing request. Each transport's tests run every check once, as one
/// parameterized test.
///
/// ```swift
/// @Test(arguments: TransportSuite.checks)
/// func loopbackSuite(_ check: TransportCheck) async throws {
///     try await check.run(on: TransportUnderTest(name: "URLSession") { URLSession(configuration: .ephemeral) })
/// }
/// ```
public enum TransportSuite {
    /// Every check, in a stable order.
    public static let checks: [TransportCheck] =
        RedirectChecks.all + MethodRetryChecks.all + RepeatSafetyChecks.all + AuthenticatorChecks.all + TransportFailureChecks.all
        + PipelineChecks.all + ErrorBodyChecks.all + SecretChecks.all

    /// The outcome of one subscription to `publisher`, waited for without blocking a thread.
    ///
    /// ```swift
    /// let page = try await TransportSuite.outcome(of: transport.requestPublisher(for: url)).get()
    /// ```
    public static func outcome<P: Publisher>(of publisher: P) async -> Result<P.Output, NetworkError>
    where P.Failure == NetworkError {
        let holder = Locked<AnyCancellable?>(nil)
        let value = Locked<P.Output?>(nil)
        return await withCheckedContinuation { continuation in
            let cancellable = publisher.sink(
                receiveCompletion: { completion in
                    switch completion {
                    case .failure(let error): continuation.resume(returning: .failure(error))
                    case .finished:
                        let output = value.withLock { $0 }
                        continuation.resume(returning: output.map { .success($0) } ?? .failure(.invalidResponse))
                    }
                },
                receiveValue: { output in value.withLock { $0 = output } })
            holder.withLock { $0 = cancellable }
        }
    }

    /// The failure of one subscription to `publisher`, or nil if it finished.
    static func failure<P: Publisher>(of publisher: P) async -> NetworkError? where P.Failure == NetworkError {
        if case .failure(let error) = await outcome(of: publisher) { error } else { nil }
    }

    /// A request to `url` with `method`, a body for methods that have one, and `timeout`.
    static func request(_ method: String, _ url: URL, timeout: TimeInterval = 30) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = timeout
        // GET, HEAD and TRACE carry no body (a TRACE must not: RFC 9110, 9.3.8).
        if !["GET", "HEAD", "TRACE"].contains(method) { request.httpBody = Data("{}".utf8) }
        return request
    }
}

extension HTTPTransport {
    /// The request publisher of this transport, type-erased.
    func erasedPublisher(for request: URLRequest, redirectPolicy: RedirectPolicy = .default)
        -> AnyPublisher<NetworkResponse<Data>, NetworkError>
    {
        requestPublisher(for: request, redirectPolicy: redirectPolicy).eraseToAnyPublisher()
    }

    /// The request publisher of this transport for a GET of `url`, type-erased.
    func erasedPublisher(for url: URL) -> AnyPublisher<NetworkResponse<Data>, NetworkError> {
        requestPublisher(for: url).eraseToAnyPublisher()
    }

    /// The request publisher of this transport for a GET of the URL in `string`, type-erased.
    func erasedPublisher(forString string: String) -> AnyPublisher<NetworkResponse<Data>, NetworkError> {
        requestPublisher(for: string).eraseToAnyPublisher()
    }
}

extension TransportUnderTest {
    /// The request publisher of a new transport for `request`.
    func publisher(for request: URLRequest, redirectPolicy: RedirectPolicy = .default)
        -> AnyPublisher<NetworkResponse<Data>, NetworkError>
    {
        make().erasedPublisher(for: request, redirectPolicy: redirectPolicy)
    }

    /// The request publisher of a new transport for a GET of `url`.
    func publisher(for url: URL) -> AnyPublisher<NetworkResponse<Data>, NetworkError> {
        publisher(for: URLRequest(url: url))
    }
}
#endif
