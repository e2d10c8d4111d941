import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams

extension URLSession {
    /// A publisher that performs `request` once per subscription, when the subscriber first asks
    /// for a value, and sends the body with the HTTP response (``NetworkResponse``).
    ///
    /// A request that cannot be sent (no URL, a scheme other than `http` or `https`, no host, a
    /// port outside 1...65535) fails with ``NetworkError/invalidRequest(reason:)`` as soon as it
    /// is subscribed to, before any I/O.
    ///
    /// Every subscription sends its own request, so `retry` sends it again. Cancelling the
    /// subscription lets the subscriber go at once, and nothing reaches it afterwards; the
    /// request in flight is cancelled and its connection closed. On Linux, where cancelling a
    /// request still asking the session's URL cache could crash the process (as on
    /// `URLSession.shared`), it is cancelled once its response head has arrived; one that a
    /// `URLProtocol` of the app's answers runs to its end, its result dropped.
    ///
    /// Redirects are followed as `redirectPolicy` says: by default, a redirect to another
    /// origin is followed without the request's `Authorization`, `Proxy-Authorization` and
    /// `Cookie` headers, and one from `https` to `http` fails (see ``RedirectPolicy``).
    ///
    /// ```swift
    /// let answer = URLSession.shared.requestPublisher(for: URLRequest(url: url))
    ///     .validateStatus()
    ///     .decode(type: Availability.self, decoder: JSONDecoder())
    /// ```
    public func requestPublisher(for request: URLRequest, redirectPolicy: RedirectPolicy = .default) -> RequestPublisher {
        RequestPublisher(session: self, request: .success(request), redirectPolicy: redirectPolicy)
    }

    /// A publisher that performs a GET of `url`; see ``requestPublisher(for:redirectPolicy:)``.
    ///
    /// ```swift
    /// let answer = URLSession.shared.requestPublisher(for: url)
    /// ```
    public func requestPublisher(for url: URL) -> RequestPublisher {
        requestPublisher(for: URLRequest(url: url))
    }

    /// A publisher that performs a GET of the URL in `string`, or fails with
    /// `NetworkError.invalidRequest` if it is not a valid HTTP URL (such as `http://`,
    /// `http://127.0.0.1:99999/x` or `ftp://example.com/`), before any I/O.
    ///
    /// ```swift
    /// let answer = URLSession.shared.requestPublisher(for: "http://127.0.0.1:8080/isUserNameAvailable?userName=\(name)")
    /// ```
    public func requestPublisher(for string: String) -> RequestPublisher {
        guard let url = URL(string: string) else {
            return RequestPublisher(session: self, request: .failure(.invalidRequest(reason: "not a URL: \(string)")))
        }
        return requestPublisher(for: url)
    }

    /// A publisher of one HTTP exchange on a session: the ``HTTPRequestPublisher`` over a
    /// `URLSession`; see ``URLSession/requestPublisher(for:redirectPolicy:)``.
    ///
    /// ```swift
    /// let publisher: URLSession.RequestPublisher = URLSession.shared.requestPublisher(for: url)
    /// ```
    public typealias RequestPublisher = HTTPRequestPublisher<URLSession>
}
