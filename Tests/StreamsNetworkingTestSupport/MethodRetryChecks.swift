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

/// Which requests the default retry sends again, by method and `Idempotency-Key`, against a
/// loopback server that records them.
enum MethodRetryChecks {
    static let all = [
        TransportCheck("aServerErrorForAMethodThatIsNotIdempotentIsNotRetried", notIdempotent),
        TransportCheck("aServerErrorForAnIdempotentMethodIsRetried", idempotent),
        TransportCheck("aServerErrorForAPostWithAnIdempotencyKeyIsRetriedWithTheSameKey", keyedServerError),
        TransportCheck("aRateLimitedPostIsRetried", rateLimited),
        TransportCheck("aPostThatTimedOutAfterTheServerReceivedItIsNotRetried", postTimedOut),
        TransportCheck("aPostWithAnIdempotencyKeyThatTimedOutIsRetriedWithTheSameKey", keyedPostTimedOut),
        TransportCheck("aGetThatTimedOutIsRetried", getTimedOut),
        TransportCheck("aPostThatCouldNotConnectIsRetried", postRefused),
    ]

    /// Sends `request` with up to `retries` retries at once, on the default predicate; returns
    /// the failure.
    static func retried(_ request: URLRequest, on transport: TransportUnderTest, retries: Int = 2) async -> NetworkError? {
        await TransportSuite.failure(
            of: transport.publisher(for: request).validateStatus()
                .retry(retries, backoff: .immediate, scheduler: DispatchQueue(label: "retries")))
    }

    static func notIdempotent(_ transport: TransportUnderTest) async throws {
        for method in ["POST", "PATCH"] {
            let server = try RecordingHTTPServer { _ in .status(503) }
            defer { server.stop() }
            let error = await retried(TransportSuite.request(method, server.url()), on: transport)
            #expect(error?.status == 503, "\(method)")
            #expect(error?.category == .nonRetryable, "\(method)")
            #expect(server.requests.count == 1, "\(method)")
        }
    }

    static func idempotent(_ transport: TransportUnderTest) async throws {
        for method in ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"] {
            let server = try RecordingHTTPServer { _ in .status(503) }
            defer { server.stop() }
            _ = await retried(TransportSuite.request(method, server.url()), on: transport)
            #expect(server.requests.count == 3, "\(method)")
            #expect(server.requests.allSatisfy { $0.method == method }, "\(method)")
        }
    }

    static func keyedServerError(_ transport: TransportUnderTest) async throws {
        let server = try RecordingHTTPServer { _ in .status(500) }
        defer { server.stop() }
        let request = TransportSuite.request("POST", server.url()).addingIdempotencyKey("order-17")
        let error = await retried(request, on: transport)
        #expect(error?.category == .retryable)
        #expect(server.requests.map { $0.headers["idempotency-key"] } == Array(repeating: "\"order-17\"", count: 3))
    }

    static func rateLimited(_ transport: TransportUnderTest) async throws {
        // The server did not act on a request it refused for its rate: sending it again is safe.
        let server = try RecordingHTTPServer { _ in .status(429) }
        defer { server.stop() }
        _ = await retried(TransportSuite.request("POST", server.url()), on: transport)
        #expect(server.requests.count == 3)
    }

    static func postTimedOut(_ transport: TransportUnderTest) async throws {
        let server = try RecordingHTTPServer { _ in .hold }
        defer { server.stop() }
        let error = await retried(TransportSuite.request("POST", server.url(), timeout: 1), on: transport)
        guard case .transport(let urlError, let request) = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(urlError.code == .timedOut)
        #expect(request == SentRequest(method: "POST"))
        #expect(error?.category == .nonRetryable)
        #expect(server.requests.count == 1)
    }

    static func keyedPostTimedOut(_ transport: TransportUnderTest) async throws {
        let server = try RecordingHTTPServer { _ in .hold }
        defer { server.stop() }
        let request = TransportSuite.request("POST", server.url(), timeout: 1).addingIdempotencyKey()
        let error = await retried(request, on: transport, retries: 1)
        #expect(error?.category == .retryable)
        let keys = server.requests.map { $0.headers["idempotency-key"] }
        #expect(keys.count == 2)
        #expect(keys.first != nil && keys.first == keys.last)
        #expect(server.requests.map(\.body) == [Data("{}".utf8), Data("{}".utf8)])
    }

    static func getTimedOut(_ transport: TransportUnderTest) async throws {
        let server = try RecordingHTTPServer { _ in .hold }
        defer { server.stop() }
        let error = await retried(TransportSuite.request("GET", server.url(), timeout: 1), on: transport, retries: 1)
        #expect(error?.category == .retryable)
        #expect(server.requests.count == 2)
    }

    static func postRefused(_ transport: TransportUnderTest) async throws {
        // Nothing listens: the request never left, so sending it again is safe for any method.
        let port = try MisbehavingServer.closedPort()
        let attempts = Locked(0)
        let request = TransportSuite.request("POST", try #require(URL(string: "http://127.0.0.1:\(port)/")))
        let error = await TransportSuite.failure(
            of: transport.publisher(for: request).validateStatus()
                .retry(
                    2, backoff: .immediate, scheduler: DispatchQueue(label: "retries"),
                    onRetry: { _ in attempts.withLock { $0 += 1 } }))
        guard case .transport(let urlError, _) = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(urlError.code == .cannotConnectToHost)
        #expect(error?.category == .retryable)
        #expect(attempts.withLock { $0 } == 2)
    }
}
#endif
