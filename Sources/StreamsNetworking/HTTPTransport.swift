import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What sends HTTP requests for the request publisher: the one thing that differs between
/// `URLSession` and a server-side HTTP client. Everything above it (the request publisher,
/// `validateStatus()`, `decode`, the method-aware retry, ``Authenticator`` and the
/// ``RedirectPolicy``) is written once, against this protocol.
///
/// `URLSession` conforms here; the `StreamsAsyncHTTPClient` package (in `Transports/` beside
/// this one) makes AsyncHTTPClient's `HTTPClient` conform.
///
/// A conformance makes a task that, once resumed, sends one request, follows redirects only as
/// the policy decides (``RedirectPolicy/decision(for:)``), and ends by calling `completion` once
/// with the final response and its whole body, or with the failure:
/// - a failure of the connection is ``NetworkError/transport(_:request:)`` with the `URLError`
///   code that URLSession reports for the same failure, so that the retry treats it alike (a
///   refused connection or an unknown host before the request was sent, a timeout or a lost
///   connection after);
/// - a redirect the policy refuses is the policy's error, such as
///   ``NetworkError/insecureRedirect(from:to:)``;
/// - a status outside 2xx is not a failure: it is delivered, for `validateStatus()` to classify.
///
/// ```swift
/// func profile(on transport: some HTTPTransport) -> AnyPublisher<Profile, NetworkError> {
///     transport.requestPublisher(for: URLRequest(url: profileURL))
///         .validateStatus()
///         .decode(type: Profile.self, decoder: JSONDecoder())
///         .map(\.value)
///         .eraseToAnyPublisher()
/// }
/// ```
public protocol HTTPTransport: Sendable {
    /// Makes a task that sends `request` when resumed, follows its redirects as
    /// `redirectPolicy` decides, and calls `completion` once with the outcome, unless it is
    /// cancelled before it was resumed. The request has an `http` or `https` URL with a host.
    ///
    /// ```swift
    /// let task = transport.makeTask(for: request, redirectPolicy: .default) { outcome in
    ///     print(outcome)
    /// }
    /// task.resume()
    /// ```
    func makeTask(
        for request: URLRequest, redirectPolicy: RedirectPolicy,
        completion: @escaping @Sendable (Result<NetworkResponse<Data>, NetworkError>) -> Void
    ) -> any HTTPTransportTask
}

extension HTTPTransport {
    /// A publisher that performs `request` once per subscription, when the subscriber first
    /// asks for a value, and sends the body with the HTTP response (``NetworkResponse``);
    /// see ``HTTPRequestPublisher``.
    ///
    /// ```swift
    /// let answer = transport.requestPublisher(for: URLRequest(url: url))
    ///     .validateStatus()
    ///     .decode(type: Availability.self, decoder: JSONDecoder())
    /// ```
    public func requestPublisher(for request: URLRequest, redirectPolicy: RedirectPolicy = .default)
        -> HTTPRequestPublisher<Self>
    {
        HTTPRequestPublisher(transport: self, request: .success(request), redirectPolicy: redirectPolicy)
    }

    /// A publisher that performs a GET of `url`.
    ///
    /// ```swift
    /// let answer = transport.requestPublisher(for: url)
    /// ```
    public func requestPublisher(for url: URL) -> HTTPRequestPublisher<Self> {
        requestPublisher(for: URLRequest(url: url))
    }

    /// A publisher that performs a GET of the URL in `string`, or fails with
    /// `NetworkError.invalidRequest` if it is not a valid HTTP URL, before any I/O.
    ///
    /// ```swift
    /// let answer = transport.requestPublisher(for: "http://127.0.0.1:8080/health")
    /// ```
    public func requestPublisher(for string: String) -> HTTPRequestPublisher<Self> {
        guard let url = URL(string: string) else {
            return HTTPRequestPublisher(transport: self, request: .failure(.invalidRequest(reason: "not a URL: \(string)")))
        }
        return requestPublisher(for: url)
    }
}
