import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsResilience

/// A publisher of one HTTP exchange over an ``HTTPTransport``: it performs the request once per
/// subscription, when the subscriber first asks for a value, and sends the body with the HTTP
/// response (``NetworkResponse``). `URLSession.RequestPublisher` is this publisher over a
/// `URLSession`.
///
/// A request that cannot be sent (no URL, a scheme other than `http` or `https`, no host, a
/// port outside 1...65535) fails with ``NetworkError/invalidRequest(reason:)`` as soon as it is
/// subscribed to, before any I/O, whatever the transport.
///
/// Every subscription sends its own request, so `retry` sends it again. Cancelling the
/// subscription lets the subscriber go at once, and nothing reaches it afterwards; the exchange
/// in flight is stopped as its transport allows (``HTTPTransportTask/stop()``).
///
/// Redirects are followed as `redirectPolicy` says: by default, a redirect to another origin is
/// followed without the request's `Authorization`, `Proxy-Authorization` and `Cookie` headers,
/// and one from `https` to `http` fails (see ``RedirectPolicy``).
///
/// ```swift
/// let publisher: HTTPRequestPublisher<URLSession> = URLSession.shared.requestPublisher(for: url)
/// ```
public struct HTTPRequestPublisher<Transport: HTTPTransport>: Publisher, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable, Sendable
{
    /// The response body, the HTTP response and the request it answers.
    public typealias Output = NetworkResponse<Data>
    /// What went wrong: a transport error, a refused redirect, or a response that is not HTTP.
    public typealias Failure = NetworkError

    /// What sends the request.
    public let transport: Transport
    /// The request, or why it could not be made.
    public let request: Result<URLRequest, NetworkError>
    /// What is done with a redirect.
    public let redirectPolicy: RedirectPolicy

    /// Makes a publisher of `request` over `transport`.
    ///
    /// ```swift
    /// let publisher = HTTPRequestPublisher(transport: URLSession.shared, request: .success(URLRequest(url: url)))
    /// ```
    public init(transport: Transport, request: Result<URLRequest, NetworkError>, redirectPolicy: RedirectPolicy = .default) {
        self.transport = transport
        self.request = request
        self.redirectPolicy = redirectPolicy
    }

    /// The request, with no secret shown: `RequestPublisher(GET http://host/path [Accept: json])`.
    public var description: String {
        switch request {
        case .success(let request):
            "RequestPublisher(\(Redaction.request(request, alsoSensitive: redirectPolicy.sensitiveHeaders)))"
        case .failure(let error): "RequestPublisher(\(error))"
        }
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The transport and the request, with no secret shown.
    public var customMirror: Mirror {
        let request: String =
            switch self.request {
            case .success(let request): Redaction.request(request, alsoSensitive: redirectPolicy.sensitiveHeaders)
            case .failure(let error): error.description
            }
        let label = Transport.self == URLSession.self ? "session" : "transport"
        return Mirror(self, children: [label: "\(transport)", "request": request])
    }

    /// Attaches `subscriber`; the request starts on its first request for a value.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == NetworkError {
        switch request.flatMap(Self.checked) {
        case .success(let request):
            // Tells the resilience stages subscribing (an attempt timeout, a hedge, a retry)
            // that this call must not be sent twice.
            if !SentRequest(request).isSafeToRepeat { RepeatSafety.declareNotSafe() }
            subscriber.receive(
                subscription: RequestSubscription(
                    transport: transport, request: request, redirectPolicy: redirectPolicy, downstream: subscriber))
        case .failure(let error):
            Fail<Output, NetworkError>(error: error).receive(subscriber: subscriber)
        }
    }

    /// `request`, or why it cannot be sent: what a transport would otherwise report only after
    /// trying, or, as URLSession on Linux does, try to send anyway (an `ftp` URL becomes a
    /// connection attempt there, and its failure would look worth retrying).
    static func checked(_ request: URLRequest) -> Result<URLRequest, NetworkError> {
        func invalid(_ reason: String) -> Result<URLRequest, NetworkError> { .failure(.invalidRequest(reason: reason)) }
        guard let url = request.url else { return invalid("the request has no URL") }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return invalid("unsupported scheme in \(Redaction.url(url))")
        }
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return invalid("malformed URL \(Redaction.url(url))")
        }
        guard let host = components.host, !host.isEmpty else { return invalid("no host in \(Redaction.url(url))") }
        if let port = components.port, !(1...65_535).contains(port) {
            return invalid("port \(port) out of range in \(Redaction.url(url))")
        }
        return .success(request)
    }
}

extension HTTPRequestPublisher where Transport == URLSession {
    /// The session that performs the request.
    ///
    /// ```swift
    /// let session = URLSession.shared.requestPublisher(for: url).session
    /// ```
    public var session: URLSession { transport }

    /// Makes a publisher of `request` on `session`.
    ///
    /// ```swift
    /// let publisher = URLSession.RequestPublisher(session: .shared, request: .success(URLRequest(url: url)))
    /// ```
    public init(session: URLSession, request: Result<URLRequest, NetworkError>, redirectPolicy: RedirectPolicy = .default) {
        self.init(transport: session, request: request, redirectPolicy: redirectPolicy)
    }
}
