// The loopback transport suite, against URLSession.
#if canImport(Glibc)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StreamsNetworking
import StreamsNetworkingTestSupport
import Testing

@Suite("The transport suite on URLSession")
struct URLSessionTransportTests {
    /// An ephemeral session with no cache, so that every request reaches the server, that opens
    /// as many connections at once as the suite sends requests (FoundationNetworking's default
    /// is 6 per host).
    static let transport = TransportUnderTest(
        name: "URLSession",
        codes: [
            // libcurl's words for these, as FoundationNetworking passes them on.
            .closeWithoutReply: .badServerResponse,  // -1011 "Empty reply from server"
            .closeMidBody: .unknown,  // -1 "transfer closed with N bytes remaining to read"
            .tlsHandshake: .unknown,  // -1 "OpenSSL/3...: wrong version number"
        ],
        keepsRedirectBody: false
    ) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpMaximumConnectionsPerHost = 16
        return URLSession(configuration: configuration)
    }

    @Test(arguments: TransportSuite.checks)
    func loopbackSuite(_ check: TransportCheck) async throws {
        try await check.run(on: Self.transport)
    }
}
#endif
