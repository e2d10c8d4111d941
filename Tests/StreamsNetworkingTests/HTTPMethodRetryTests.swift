// Which requests the default retry sends again, by method and Idempotency-Key, against a
// loopback server.
#if canImport(Glibc)
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsNetworking
import StreamsTesting
import Testing

@Suite("HTTP methods and the default retry, against a loopback server")
struct HTTPMethodRetryTests {
    /// A request with `method` to `url`, with a short timeout.
    static func request(_ method: String, _ url: URL, timeout: TimeInterval = 30) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = timeout
        if method != "GET" && method != "HEAD" { request.httpBody = Data("{}".utf8) }
        return request
    }

    /// Sends `request` with up to two retries at once, on the default predicate; returns the
    /// failure.
    static func retried(_ request: URLRequest) -> NetworkError? {
        outcome(
            of: freshSession().requestPublisher(for: request).validateStatus()
                .retry(2, backoff: .immediate, scheduler: DispatchQueue(label: "retries"))
        ).error
    }

    @Test(arguments: ["POST", "PATCH"])
    func aServerErrorForAMethodThatIsNotIdempotentIsNotRetried(_ method: String) throws {
        let server = try RecordingHTTPServer { _ in .status(503) }
        defer { server.stop() }
        let error = Self.retried(Self.request(method, server.url()))
        #expect(error?.status == 503)
        #expect(error?.category == .nonRetryable)
        #expect(server.requests.count == 1)
    }

    @Test(arguments: ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"])
    func aServerErrorForAnIdempotentMethodIsRetried(_ method: String) throws {
        let server = try RecordingHTTPServer { _ in .status(503) }
        defer { server.stop() }
        _ = Self.retried(Self.request(method, server.url()))
        #expect(server.requests.count == 3)
        #expect(server.requests.allSatisfy { $0.method == method })
    }

    @Test func aServerErrorForAPostWithAnIdempotencyKeyIsRetriedWithTheSameKey() throws {
        let server = try RecordingHTTPServer { _ in .status(500) }
        defer { server.stop() }
        let error = Self.retried(Self.request("POST", server.url()).addingIdempotencyKey("order-17"))
        #expect(error?.category == .retryable)
        #expect(server.requests.map { $0.headers["idempotency-key"] } == Array(repeating: "\"order-17\"", count: 3))
    }

    @Test func aRateLimitedPostIsRetried() throws {
        // The server did not act on a request it refused for its rate: sending it again is safe.
        let server = try RecordingHTTPServer { _ in .status(429) }
        defer { server.stop() }
        _ = Self.retried(Self.request("POST", server.url()))
        #expect(server.requests.count == 3)
    }

    @Test func aPostThatTimedOutAfterTheServerReceivedItIsNotRetried() throws {
        let server = try RecordingHTTPServer { _ in .hold }
        defer { server.stop() }
        let error = Self.retried(Self.request("POST", server.url(), timeout: 1))
        guard case .transport(let urlError, let request) = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(urlError.code == .timedOut)
        #expect(request == SentRequest(method: "POST"))
        #expect(error?.category == .nonRetryable)
        #expect(server.requests.count == 1)
    }

    @Test func aPostWithAnIdempotencyKeyThatTimedOutIsRetriedWithTheSameKey() throws {
        let server = try RecordingHTTPServer { _ in .hold }
        defer { server.stop() }
        let request = Self.request("POST", server.url(), timeout: 1).addingIdempotencyKey()
        let error = outcome(
            of: freshSession().requestPublisher(for: request).validateStatus()
                .retry(1, backoff: .immediate, scheduler: DispatchQueue(label: "retries"))
        ).error
        #expect(error?.category == .retryable)
        let keys = server.requests.map { $0.headers["idempotency-key"] }
        #expect(keys.count == 2)
        #expect(keys[0] != nil && keys[0] == keys[1])
        #expect(server.requests.map(\.body) == [Data("{}".utf8), Data("{}".utf8)])
    }

    @Test func aGetThatTimedOutIsRetried() throws {
        let server = try RecordingHTTPServer { _ in .hold }
        defer { server.stop() }
        let error = outcome(
            of: freshSession().requestPublisher(for: Self.request("GET", server.url(), timeout: 1)).validateStatus()
                .retry(1, backoff: .immediate, scheduler: DispatchQueue(label: "retries"))
        ).error
        #expect(error?.category == .retryable)
        #expect(server.requests.count == 2)
    }

    @Test func aPostThatCouldNotConnectIsRetried() throws {
        // Nothing listens: the request never left, so sending it again is safe for any method.
        let port = try MisbehavingServer.closedPort()
        let attempts = Locked(0)
        let error = outcome(
            of: freshSession().requestPublisher(for: Self.request("POST", URL(string: "http://127.0.0.1:\(port)/")!))
                .validateStatus()
                .retry(
                    2, backoff: .immediate, scheduler: DispatchQueue(label: "retries"),
                    onRetry: { _ in attempts.withLock { $0 += 1 } })
        ).error
        guard case .transport(let urlError, _) = error else { Issue.record("expected a transport error"); return }
        #expect(urlError.code == .cannotConnectToHost)
        #expect(error?.category == .retryable)
        #expect(attempts.withLock { $0 } == 2)
    }

    @Test func theKeyStaysTheSameAndIsQuoted() {
        let request = URLRequest(url: URL(string: "http://example.com/")!).addingIdempotencyKey()
        let key = request.value(forHTTPHeaderField: "Idempotency-Key") ?? ""
        #expect(key.hasPrefix("\"") && key.hasSuffix("\"") && key.count == 38)
        #expect(SentRequest(request).hasIdempotencyKey)
    }

    @Test(arguments: [
        (URLError.Code.cannotConnectToHost, true), (.cannotFindHost, true), (.dnsLookupFailed, true),
        (.notConnectedToInternet, true), (.timedOut, false), (.networkConnectionLost, false), (.badServerResponse, false),
    ])
    func aTransportFailureIsRetriedForAPostOnlyIfNothingWasSent(_ code: URLError.Code, _ retried: Bool) {
        let post = NetworkError.transport(URLError(code), request: SentRequest(method: "post"))
        #expect(post.category == (retried ? .retryable : .nonRetryable))
        let keyed = NetworkError.transport(URLError(code), request: SentRequest(method: "POST", hasIdempotencyKey: true))
        #expect(keyed.category == .retryable)
        #expect(NetworkError.transport(URLError(code)).category == .retryable)
    }
}
#endif
