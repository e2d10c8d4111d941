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
