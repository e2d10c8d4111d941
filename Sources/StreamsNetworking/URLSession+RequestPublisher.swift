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
    /// request in flight is cancelled, except on Linux where cancelling it could crash the
    /// process (a session with a URL cache, as `URLSession.shared` has, or with URL protocols
    /// of the app's): there it runs to its end and its result is dropped.
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

    /// A publisher of one HTTP exchange; see ``URLSession/requestPublisher(for:redirectPolicy:)``.
    ///
    /// ```swift
    /// let publisher: URLSession.RequestPublisher = URLSession.shared.requestPublisher(for: url)
    /// ```
    public struct RequestPublisher: Publisher, CustomStringConvertible, CustomDebugStringConvertible,
        CustomReflectable, @unchecked Sendable
    {
        /// The response body, the HTTP response and the request it answers.
        public typealias Output = NetworkResponse<Data>
        /// What went wrong: a transport error, or a response that is not HTTP.
        public typealias Failure = NetworkError

        /// The session that performs the request.
        public let session: URLSession
        /// The request, or why it could not be made.
        public let request: Result<URLRequest, NetworkError>
        /// What is done with a redirect.
        public let redirectPolicy: RedirectPolicy

        /// Makes a publisher of `request` on `session`.
        ///
        /// ```swift
        /// let publisher = URLSession.RequestPublisher(session: .shared, request: .success(URLRequest(url: url)))
        /// ```
        public init(
            session: URLSession, request: Result<URLRequest, NetworkError>, redirectPolicy: RedirectPolicy = .default
        ) {
            self.session = session
            self.request = request
            self.redirectPolicy = redirectPolicy
        }

        /// The request, with no secret shown: `RequestPublisher(GET http://host/path [Accept: json])`.
        public var description: String {
            switch request {
            case .success(let request): "RequestPublisher(\(Redaction.request(request)))"
            case .failure(let error): "RequestPublisher(\(error))"
            }
        }

        /// The same as ``description``.
        public var debugDescription: String { description }

        /// The session and the request, with no secret shown.
        public var customMirror: Mirror {
            let request: String =
                switch self.request {
                case .success(let request): Redaction.request(request)
                case .failure(let error): error.description
                }
            return Mirror(self, children: ["session": "\(session)", "request": request])
        }

        /// Attaches `subscriber`; the request starts on its first request for a value.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == NetworkError {
            switch request.flatMap(Self.checked) {
            case .success(let request):
                subscriber.receive(
                    subscription: RequestSubscription(
                        session: session, request: request, redirectPolicy: redirectPolicy, downstream: subscriber))
            case .failure(let error):
                Fail<Output, NetworkError>(error: error).receive(subscriber: subscriber)
            }
        }

        /// `request`, or why it cannot be sent: what URLSession would otherwise report only
        /// after trying, or, on Linux, try to send anyway (an `ftp` URL becomes a connection
        /// attempt there, and its failure would look worth retrying).
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
}

/// What a data task's completion handler calls: a non-generic face, so that the handler
/// captures no generic type.
protocol RequestCompletion: AnyObject, Sendable {
    func finish(data: Data?, response: URLResponse?, error: (any Error)?)
}

/// One HTTP exchange for one subscriber.
final class RequestSubscription<Downstream: Subscriber>: Subscription, RequestCompletion, CustomStringConvertible,
    CustomReflectable, @unchecked Sendable
where Downstream.Input == URLSession.RequestPublisher.Output, Downstream.Failure == NetworkError {
    private let session: URLSession
    private let request: URLRequest
    /// Applies the redirect policy to the task, and remembers a redirect it refused.
    private let redirects: RedirectDelegate
    private let lock = Lock()
    // Guarded by `lock`.
    private var state: DataTaskStateMachine<Downstream>

    init(session: URLSession, request: URLRequest, redirectPolicy: RedirectPolicy, downstream: Downstream) {
        self.session = session
        self.request = request
        redirects = RedirectDelegate(policy: redirectPolicy)
        state = DataTaskStateMachine(downstream: downstream)
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "API Violation: demand must not be zero")
        let action = lock.withLockUnchecked { state.requested(demand, resumingEveryTime: false) }
        guard case .makeTask = action else { return }
        let completion: any RequestCompletion = self
        let task = session.dataTask(with: request) { data, response, error in
            completion.finish(data: data, response: response, error: error)
        }
        task.delegate = redirects
        switch lock.withLockUnchecked({ state.made(task) }) {
        case .resume: task.resume()
        case .cancelUnstarted: task.cancel()
        }
    }

    func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
        guard let downstream = lock.withLockUnchecked({ state.ended() }) else { return }
        if let refusal = redirects.refusal {
            downstream.receive(completion: .failure(refusal))
            return
        }
        if let error {
            let urlError = error as? URLError ?? URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error])
            downstream.receive(completion: .failure(.transport(urlError, request: SentRequest(request))))
            return
        }
        guard let response = response as? HTTPURLResponse else {
            downstream.receive(completion: .failure(.invalidResponse))
            return
        }
        _ = downstream.receive(NetworkResponse(value: data ?? Data(), response: response, request: SentRequest(request)))
        downstream.receive(completion: .finished)
    }

    func cancel() {
        // The downstream is let go here, outside the lock, when the action goes out of scope.
        switch lock.withLockUnchecked({ state.cancelled() }) {
        case .none, .release: break
        case .stop(let task, _): session.stop(task)
        }
    }

    var description: String { "RequestPublisher" }

    /// The request, with no secret shown.
    var customMirror: Mirror {
        Mirror(self, children: ["request": Redaction.request(request)])
    }
}
