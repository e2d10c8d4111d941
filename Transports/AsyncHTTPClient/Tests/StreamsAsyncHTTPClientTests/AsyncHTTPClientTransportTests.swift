// What only the AsyncHTTPClient transport has: its body-size limit and its error mapping.
#if canImport(Glibc)
import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import StreamsAsyncHTTPClient
import StreamsNetworking
import StreamsNetworkingTestSupport
import Testing

@Suite("AsyncHTTPClientTransport")
struct AsyncHTTPClientTransportTests {
    @Test func aBodyLongerThanTheLimitFailsAndIsNotRetryable() async throws {
        let body = String(repeating: "x", count: 2_000)
        let server = try RecordingHTTPServer { _ in .status(200, body: body) }
        defer { server.stop() }
        let transport = AsyncHTTPClientTransport(maximumBodySize: 1_000)
        let tooLong = await TransportSuite.outcome(of: transport.requestPublisher(for: server.url()))
        guard case .failure(.transport(let error, _)) = tooLong else {
            Issue.record("expected a transport error, got \(tooLong)")
            try await transport.shutdown()
            return
        }
        #expect(error.code == .dataLengthExceedsMaximum)
        #expect(NetworkError.transport(error, request: SentRequest(method: "GET")).category == .nonRetryable)
        try await transport.shutdown()

        let roomy = AsyncHTTPClientTransport(maximumBodySize: 2_000)
        let fits = await TransportSuite.outcome(of: roomy.requestPublisher(for: server.url()))
        #expect((try? fits.get())?.data.count == 2_000)
        try await roomy.shutdown()
    }

    @Test func anErrorStatusWithABodyOverTheLimitGivesItsStatusAndKeepsOnlyTheParsingLimit() async throws {
        let body = String(repeating: "x", count: 200_000)
        let server = try RecordingHTTPServer { _ in .status(503, ["Content-Type": "text/html"], body: body) }
        defer { server.stop() }
        let transport = AsyncHTTPClientTransport(maximumBodySize: 1_000)
        let result = await TransportSuite.outcome(of: transport.requestPublisher(for: server.url()))
        try await transport.shutdown()
        let response = try result.get()
        #expect(response.response.statusCode == 503)
        #expect(response.data.count == ProblemDetails.parsingLimit + 1)  // one byte past the limit: not parsed
        let failure = await TransportSuite.outcome(
            of: AsyncHTTPClientTransportSuiteTests.shared.requestPublisher(for: server.url()).validateStatus())
        guard case .failure(.server(let error)) = failure else {
            Issue.record("expected a server error, got \(failure)")
            return
        }
        #expect(error.status == 503)
        #expect(NetworkError.server(error).category == .retryable)
    }

    @Test(arguments: [TimeInterval.infinity, 1e300, 9.3e9, -1, .nan, 0])
    func anyTimeoutIntervalIsAccepted(_ timeout: TimeInterval) async throws {
        let server = try RecordingHTTPServer { _ in .status(200, body: "ok") }
        defer { server.stop() }
        var request = URLRequest(url: server.url())
        request.timeoutInterval = timeout
        let result = await TransportSuite.outcome(
            of: AsyncHTTPClientTransportSuiteTests.shared.requestPublisher(for: request))
        #expect(try result.get().response.statusCode == 200)
    }

    @Test func aBodyStreamIsSentOnceAndARequestWhoseStreamWasReadFails() async throws {
        let server = try RecordingHTTPServer { _ in .status(200, body: "ok") }
        defer { server.stop() }
        let payload = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0) })
        var request = URLRequest(url: server.url("/upload"))
        request.httpMethod = "PUT"
        request.httpBodyStream = InputStream(data: payload)
        let transport = AsyncHTTPClientTransportSuiteTests.shared
        let first = await TransportSuite.outcome(of: transport.requestPublisher(for: request))
        #expect(try first.get().response.statusCode == 200)
        #expect(server.requests.first?.body == payload)
        let again = await TransportSuite.outcome(of: transport.requestPublisher(for: request))
        guard case .failure(.invalidRequest(let reason)) = again else {
            Issue.record("expected invalidRequest, got \(again)")
            return
        }
        #expect(reason.contains("httpBodyStream"))
        #expect(server.requests.count == 1)
    }

    @Test(arguments: [
        (HTTPClientError.deadlineExceeded as any Error & Sendable, URLError.Code.timedOut, false),
        (HTTPClientError.readTimeout, .timedOut, false),
        (HTTPClientError.connectTimeout, .cannotConnectToHost, true),
        (HTTPClientError.getConnectionFromPoolTimeout, .cannotConnectToHost, true),
        (HTTPClientError.remoteConnectionClosed, .networkConnectionLost, false),
        (HTTPClientError.cancelled, .cancelled, false),
        (ChannelError.connectTimeout(.seconds(1)), .cannotConnectToHost, true),
        (ChannelError.eof, .networkConnectionLost, false),
        (IOError(errnoCode: ECONNREFUSED, reason: "connect"), .cannotConnectToHost, true),
        (IOError(errnoCode: ECONNRESET, reason: "read"), .networkConnectionLost, false),
        (CancellationError(), .cancelled, false),
    ])
    func errorsMapOntoURLSessionsCodes(_ error: any Error & Sendable, _ code: URLError.Code, _ beforeSending: Bool) throws {
        var post = URLRequest(url: try #require(URL(string: "http://127.0.0.1/orders")))
        post.httpMethod = "POST"
        let mapped = AsyncHTTPClientTransport.networkError(error, request: post)
        guard case .transport(let urlError, let request) = mapped else {
            Issue.record("expected a transport error, got \(mapped)")
            return
        }
        #expect(urlError.code == code)
        #expect(request == SentRequest(method: "POST"))
        // Retried for a POST only if nothing can have reached the server, as with URLSession.
        #expect((mapped.category == .retryable) == beforeSending)
    }
}

#endif
