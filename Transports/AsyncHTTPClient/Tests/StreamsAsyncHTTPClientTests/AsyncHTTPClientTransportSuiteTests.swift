// The loopback transport suite of the Streams package, against AsyncHTTPClient.
#if canImport(Glibc)
import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StreamsAsyncHTTPClient
import StreamsNetworking
import StreamsNetworkingTestSupport
import Testing

@Suite("The transport suite on AsyncHTTPClient")
struct AsyncHTTPClientTransportSuiteTests {
    /// One transport for the whole run (a client lives until it is shut down, and this one
    /// until the process ends), opening as many connections at once as the suite sends
    /// requests.
    static let shared: AsyncHTTPClientTransport = {
        var configuration = AsyncHTTPClientTransport.defaultConfiguration
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 16
        return AsyncHTTPClientTransport(configuration: configuration)
    }()

    static let transport = TransportUnderTest(
        name: "AsyncHTTPClient",
        codes: [
            .closeWithoutReply: .networkConnectionLost,
            .closeMidBody: .badServerResponse,  // the HTTP parser meets the end of the stream mid-body
            .tlsHandshake: .secureConnectionFailed,
        ]
    ) { shared }

    @Test(arguments: TransportSuite.checks)
    func loopbackSuite(_ check: TransportCheck) async throws {
        try await check.run(on: Self.transport)
    }
}
#endif
