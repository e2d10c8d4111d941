#if canImport(Glibc)
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsNetworking
import StreamsNetworkingTestSupport
import StreamsRecovery
import StreamsTesting
import Testing
import StreamsResilience

/// No string StreamsNetworking makes of a request, a response, an error or its own types shows a
/// secret: `SECRET` goes in every place a secret can be, and must come out nowhere. The same
/// through a failing request, on every transport, is in the transport suite (`SecretChecks`).
@Suite("Secrets never printed")
struct RedactionTests {
    static let secret = SecretStrings.secret

    static func strings(of value: Any) -> [String] { SecretStrings.strings(of: value) }

    static func expectNoSecret(in value: Any, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        SecretStrings.expectNoSecret(in: value, what, sourceLocation: sourceLocation)
    }

    /// A URL with the secret as its password and as the value of every secret query item name,
    /// in several cases, at `host:port`.
    static func secretURL(port: Int, scheme: String = "http") -> URL {
        URL(
            string: "\(scheme)://user:\(secret)@127.0.0.1:\(port)/x?token=\(secret)&Access_Token=\(secret)"
                + "&API_KEY=\(secret)&key=\(secret)&PassWord=\(secret)&secret=\(secret)&Signature=\(secret)&page=2")!
    }

    /// A POST to `url` with the secret in every credential header and in its body.
    static func secretRequest(_ url: URL) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("Bearer \(secret)", forHTTPHeaderField: "Authorization")
        request.setValue("Basic \(secret)", forHTTPHeaderField: "Proxy-Authorization")
        request.setValue("sid=\(secret)", forHTTPHeaderField: "Cookie")
        request.setValue("sid=\(secret)", forHTTPHeaderField: "Set-Cookie")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"password":"\#(secret)"}"#.utf8)
        request.timeoutInterval = 30
        return request
    }

    @Test func headersThePolicyMarksSensitiveAreRedactedInThePublisherAndItsSubscription() throws {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:9/x")))
        request.setValue(Self.secret, forHTTPHeaderField: "X-Api-Key")
        request.setValue("trace-1", forHTTPHeaderField: "X-Trace")
        let session = URLSession(configuration: .ephemeral)
        let marked = session.requestPublisher(for: request, redirectPolicy: .follow(removingOnCrossOrigin: ["x-API-key"]))
        Self.expectNoSecret(in: marked, "a publisher whose policy marks X-Api-Key")
        #expect(String(describing: marked).contains("X-Api-Key: <redacted>"))
        #expect(String(describing: marked).contains("X-Trace: trace-1"))  // what is not marked stays
        let waiting = TestSubscriber<URLSession.RequestPublisher.Output, NetworkError>(initialDemand: nil)
        marked.subscribe(waiting)
        Self.expectNoSecret(in: try #require(waiting.subscription), "its subscription")
        waiting.cancel()
        // Under a policy that does not mark it, the header is an ordinary one.
        #expect(String(describing: session.requestPublisher(for: request)).contains("X-Api-Key: \(Self.secret)"))
    }

    @Test(arguments: [
        #"token="SECRET""#, "token='SECRET'", "token: SECRET", "token:SECRET", "Password = SECRET",
        #"{"token":"SECRET","page":2}"#, #"{"api_key" : "SEC\"RET, SECRET"}"#, #"access_token="SECRET"&page=2"#,
        "Authorization failed for signature:\tSECRET",
    ])
    func quotedAndColonFormsAreRedacted(_ text: String) {
        let error = NetworkError.invalidRequest(reason: text)
        Self.expectNoSecret(in: error, text)
        #expect(error.description.contains("<redacted>"))
        Self.expectNoSecret(in: ProblemDetails(detail: text), "problem details quoting \(text)")
    }

    @Test func whatIsNotASecretStaysAroundAQuotedOne() {
        let json = NetworkError.invalidRequest(reason: #"{"token":"SECRET","page":2,"note":"key"}"#).description
        #expect(json.contains(#"{"token":"<redacted>","page":2,"note":"key"}"#))
        let header = NetworkError.invalidRequest(reason: #"Bearer realm="api", token="SECRET", scope=read"#).description
        #expect(header.contains(#"realm="api", token="<redacted>", scope=read"#))
        #expect(NetworkError.invalidRequest(reason: "at http://127.0.0.1:8080/x").description.contains("127.0.0.1:8080"))
    }

    @Test func everyNetworkErrorShowsNoSecret() throws {
        let url = Self.secretURL(port: 8080, scheme: "https")
        let failingURL = URLError(
            .cannotConnectToHost,
            userInfo: [
                NSURLErrorFailingURLErrorKey: url,
                NSLocalizedDescriptionKey: "Could not connect to \(url.absoluteString)",
            ])
        let errors: [NetworkError] = [
            .invalidRequest(reason: "unsupported scheme in ftp://h/x?token=\(Self.secret)"),
            .transport(failingURL),
            .validation(HTTPErrorResponse(status: 400, problem: ProblemDetails(detail: "bad signature=\(Self.secret)"))),
            .server(
                HTTPErrorResponse(
                    status: 500, problem: ProblemDetails(detail: "echo: api_key=\(Self.secret)"), retryAfter: .seconds(3))),
            .decoding(.dataCorrupted(.init(codingPath: [], debugDescription: "at ?secret=\(Self.secret)"))),
            .insecureRedirect(from: url, to: Self.secretURL(port: 80)),
            .credentialRefreshFailed(reason: "refresh of token=\(Self.secret) refused"),
        ]
        for error in errors {
            Self.expectNoSecret(in: error, "\(error.customMirror.children.first?.label ?? "?")")
        }
        // A malformed URL is reported before any I/O without its secrets.
        let session = URLSession(configuration: .ephemeral)
        let invalid = session.requestPublisher(for: "ftp://127.0.0.1/x?access_token=\(Self.secret)")
        let recorder = TestSubscriber<URLSession.RequestPublisher.Output, NetworkError>()
        invalid.subscribe(recorder)
        guard case .failure(let error) = recorder.completion else {
            Issue.record("expected invalidRequest")
            return
        }
        Self.expectNoSecret(in: error, "invalidRequest")
        #expect(error.description.contains("access_token=<redacted>"))
    }

    @Test func redirectsAndTheirDecisionsShowNoSecret() throws {
        let from = Self.secretURL(port: 443, scheme: "https")
        let response = try #require(
            HTTPURLResponse(
                url: from, statusCode: 302, httpVersion: "HTTP/1.1",
                headerFields: ["Location": Self.secretURL(port: 80).absoluteString, "Set-Cookie": "sid=\(Self.secret)"]))
        let redirect = RedirectPolicy.Redirect(response: response, request: Self.secretRequest(Self.secretURL(port: 80)))
        Self.expectNoSecret(in: redirect, "a redirect")
        let sameOrigin = RedirectPolicy.Redirect(
            response: response, request: Self.secretRequest(Self.secretURL(port: 443, scheme: "https")))
        for (name, policy) in [("default", RedirectPolicy.default), ("never", .never), ("sameOriginOnly", .sameOriginOnly)] {
            Self.expectNoSecret(in: policy.decision(for: redirect), "the \(name) decision on a downgrade")
            Self.expectNoSecret(in: policy.decision(for: sameOrigin), "the \(name) decision on a same-origin redirect")
            Self.expectNoSecret(in: policy, "the \(name) policy")
        }
    }

    @Test func credentialsAndAuthenticatorsShowNoSecret() async throws {
        let credential = Credential.bearer(Self.secret)
        Self.expectNoSecret(in: credential, "a credential")
        #expect(credential.description == "Credential(<redacted>)")

        struct FailingProvider: CredentialProvider {
            func storedCredential() -> Credential? { .bearer(RedactionTests.secret) }
            func refresh(rejected: Credential?) -> AnyPublisher<Credential, NetworkError> {
                Fail(error: .invalidRequest(reason: "refresh_token=x&token=\(RedactionTests.secret)")).eraseToAnyPublisher()
            }
        }
        let server = try LoopbackHTTPServer { _ in LoopbackHTTPServer.Response(status: 401) }
        defer { server.stop() }
        let authenticator = Authenticator(
            session: URLSession(configuration: .ephemeral), origin: server.url("/"), provider: FailingProvider())
        Self.expectNoSecret(in: authenticator, "an authenticator")
        let result = await RedirectPolicyTests.outcome(of: authenticator.requestPublisher(for: server.url("/me")))
        guard case .failure(let error) = result, case .credentialRefreshFailed = error else {
            Issue.record("expected credentialRefreshFailed, got \(result)")
            return
        }
        Self.expectNoSecret(in: error, "a failed refresh")
        Self.expectNoSecret(in: authenticator, "an authenticator after a refresh")
    }

    @Test func theDataTaskPublisherShowsNoSecret() {
        let publisher = URLSession(configuration: .ephemeral).dataTaskPublisher(for: Self.secretRequest(Self.secretURL(port: 80)))
        Self.expectNoSecret(in: publisher, "the data task publisher")
        let subscriber = TestSubscriber<URLSession.DataTaskPublisher.Output, URLError>(initialDemand: nil)
        publisher.subscribe(subscriber)
        subscriber.request(.max(1))
        Self.expectNoSecret(in: subscriber.subscription as Any, "the data task publisher's subscription")
        subscriber.cancel()
    }

    @Test func responsesErrorResponsesAndAPIRequestsShowNoSecret() throws {
        let url = Self.secretURL(port: 80)
        let response = try #require(
            HTTPURLResponse(
                url: url, statusCode: 401, httpVersion: "HTTP/1.1",
                headerFields: ["Set-Cookie": "sid=\(Self.secret)", "WWW-Authenticate": "Bearer"]))
        let request = SentRequest(Self.secretRequest(url))
        Self.expectNoSecret(in: NetworkResponse(value: Data(), response: response, request: request), "a network response")
        let failure = HTTPErrorResponse(
            status: 401,
            problem: ProblemDetails(
                detail: "token=\(Self.secret) expired",
                fieldErrors: [ProblemDetails.FieldError(field: "key", message: "key=\(Self.secret)")]),
            request: request, response: response)
        Self.expectNoSecret(in: failure, "an HTTP error response")
        Self.expectNoSecret(in: NetworkError(status: failure), "a status error")
        let apiRequest = APIRequest(.post, "orders", query: [URLQueryItem(name: "api_key", value: Self.secret)])
            .header("Authorization", "Bearer \(Self.secret)")
            .header("Cookie", "sid=\(Self.secret)")
            .json(["password": Self.secret])
        Self.expectNoSecret(in: apiRequest, "an API request")
    }

    @Test func sentRequestsAndProblemDetailsShowNoSecret() {
        Self.expectNoSecret(in: SentRequest(Self.secretRequest(Self.secretURL(port: 80))), "a sent request")
        // What a server says is quoted with the secrets in its `name=value` pairs redacted,
        // wherever it says them.
        let field = ProblemDetails.FieldError(field: "api_key", message: "key=\(Self.secret) is not valid")
        let problem = ProblemDetails(
            type: "https://example.com/probs/token?token=\(Self.secret)", title: "password=\(Self.secret)", status: 401,
            detail: "signature=\(Self.secret) does not match", instance: "/orders/1?secret=\(Self.secret)",
            fieldErrors: [field])
        Self.expectNoSecret(in: field, "a field error")
        Self.expectNoSecret(in: problem, "problem details")
        #expect(String(describing: problem).contains("does not match"))  // what is not a secret stays
        #expect(String(describing: field).contains("api_key"))
    }

    /// The error of a request failing with `503`, secrets in the request, the response's
    /// headers and the server's problem details.
    static func failedRequest() async throws -> NetworkError {
        let server = try RecordingHTTPServer { _ in
            .status(
                503, ["Set-Cookie": "sid=\(RedactionTests.secret)", "Retry-After": "0", "Content-Type": "application/json"],
                body:
                    #"{"detail":"token=\#(RedactionTests.secret) rejected","errors":{"password":"password=\#(RedactionTests.secret)"}}"#
            )
        }
        defer { server.stop() }
        var request = Self.secretRequest(Self.secretURL(port: server.port))
        request.httpMethod = "GET"
        request.httpBody = nil
        let result = await RedirectPolicyTests.outcome(of: freshSession().requestPublisher(for: request).validateStatus())
        guard case .failure(let error) = result else { throw RedactionTestFailure.unexpected("\(result)") }
        #expect(error.retryAfter == .zero)
        #expect(error.errorResponse?.reason?.contains(Self.secret) == true)  // the reason itself is the server's
        return error
    }

    enum RedactionTestFailure: Error {
        case unexpected(String)
    }

    /// The events a retry tells of while `error` fails twice more, and the failure it delivers,
    /// on virtual time.
    static func retried(_ error: NetworkError) -> (events: [ResilienceEvent], completion: Subscribers.Completion<NetworkError>?) {
        let events = Locked<[ResilienceEvent]>([])
        let observer = ResilienceEvents { event in events.withLock { $0.append(event) } }
        let scheduler = TestScheduler()
        let retried = TestSubscriber<Data, NetworkError>()
        Fail<Data, NetworkError>(error: error)
            .retry(2, backoff: .constant(.seconds(1)), scheduler: scheduler, onRetry: observer.onRetry())
            .subscribe(retried)
        scheduler.advance(by: .seconds(10))
        return (events.withLock { $0 }, retried.completion)
    }

    @Test func resilienceEventsAndErrorWrappersShowNoSecret() async throws {
        let error = try await Self.failedRequest()
        Self.expectNoSecret(in: error, "a 503")
        let (told, completion) = Self.retried(error)
        #expect(told.count == 2)
        for event in told { Self.expectNoSecret(in: event, "a retry event") }
        Self.expectNoSecret(in: completion as Any, "the retried failure")
        Self.expectNoSecret(in: Subscribers.Completion<NetworkError>.failure(error), "a failure completion")
        Self.expectNoSecret(in: RetryAttempt(retry: 1, error: error, delay: .seconds(1)), "a retry attempt")
        Self.expectNoSecret(in: ResilienceError<NetworkError>.upstream(error), "a resilience error")
        Self.expectNoSecret(in: RecoveryError<NetworkError>.failed(error), "a recovery error")
        let others: [ResilienceEvent] = [
            .circuitStateChanged(.open), .circuitRejected(CircuitOpenError(state: .open, retryAfter: .seconds(1))),
            .attemptTimedOut(timeout: .seconds(1)), .deadlineExceeded(deadline: .seconds(2)),
            .limiterRejected(LimiterRejectedError(reason: .rateLimited, retryAfter: nil)),
        ]
        for event in others { Self.expectNoSecret(in: event, "an event") }
    }

    /// A `NetworkError` is a `RedactingError`: the core's events and wrappers show its own
    /// (redacted) description; a bare `URLError` in them shows only its type, domain and code.
    @Test func eventsAndWrappersShowANetworkErrorsRedactedDescription() {
        let url = Self.secretURL(port: 443, scheme: "https")
        let urlError = URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: url])
        let error = NetworkError.transport(urlError, request: SentRequest(Self.secretRequest(url)))
        #expect(error.redactedDescription == error.description)
        #expect(error.description.contains("transport error"))
        let carriers: [(String, Any)] = [
            ("retryScheduled", ResilienceEvent.retryScheduled(retry: 1, delay: .seconds(1), error: error)),
            ("attemptEnded", ResilienceEvent.attemptEnded(attempt: 1, duration: nil, error: error)),
            ("retryGaveUp", ResilienceEvent.retryGaveUp(reason: .exhausted, attempts: 3, error: error)),
            ("hedgeStarted", ResilienceEvent.hedgeStarted(attempt: 2, afterFailure: error)),
            ("ResilienceError", ResilienceError.upstream(error)),
            ("RetryAttempt", RetryAttempt(retry: 1, error: error, delay: .seconds(1))),
            ("RetryReport", RetryReport(reason: .exhausted, attempts: 3, error: error)),
            ("RecoveryError", RecoveryError.failed(error)),
        ]
        for (name, carrier) in carriers {
            Self.expectNoSecret(in: carrier, name)
            // Their own strings (an error's localized description is Foundation's).
            for string in Self.strings(of: carrier).prefix(4) {
                #expect(string.contains(error.description), "\(name): \(string)")
            }
        }
        let bare = RecoveryError.failed(urlError)
        Self.expectNoSecret(in: bare, "a recovery error of a URL error")
        #expect(String(describing: bare) == "failed(URLError(domain: NSURLErrorDomain, code: -1001))")
        #expect(String(describing: RecoveryError<URLError>.cancelled) == "cancelled")
    }

    @Test func presentationsOfNetworkErrorsShowNoSecret() async throws {
        let error = try await Self.failedRequest()
        let errors: [NetworkError] = [
            error, .invalidRequest(reason: "token=\(Self.secret)"), .credentialRefreshFailed(reason: "key=\(Self.secret)"),
            .insecureRedirect(from: Self.secretURL(port: 443, scheme: "https"), to: Self.secretURL(port: 80)),
        ]
        let warnings = Locked<[String]>([])
        let handler = DefaultErrorHandler(warn: { message in warnings.withLock { $0.append(message) } })
        let logged = Locked<[String]>([])
        let chain = ErrorHandlerChain(fallback: handler).logging { error, presentation in
            logged.withLock { $0 += RedactionTests.strings(of: error) + RedactionTests.strings(of: presentation) }
        }
        for error in errors {
            for presentation in [handler.defaultPresentation(for: error), chain.presentation(for: error)] {
                Self.expectNoSecret(in: presentation, "the presentation of \(error)")
                for text in [presentation.title, presentation.message] + presentation.options.map(\.title) {
                    #expect(!text.contains(Self.secret))
                }
            }
            for text in [error.presentationTitle, error.presentationMessage, error.errorDescription ?? ""] {
                #expect(!text.contains(Self.secret))
            }
        }
        for text in warnings.withLock({ $0 }) + logged.withLock({ $0 }) { #expect(!text.contains(Self.secret)) }
    }
}
#endif
