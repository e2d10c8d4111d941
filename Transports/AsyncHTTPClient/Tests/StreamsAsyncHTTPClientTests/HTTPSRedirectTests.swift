// Redirects out of https over real TLS: a loopback HTTPS server (TLSLoopbackServer, with the test
// certificate) redirects to a plain HTTP loopback server, and the plain server tells whether
// anything was sent in cleartext.
#if canImport(Glibc)
import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOSSL
import StreamsAsyncHTTPClient
import StreamsNetworking
import StreamsNetworkingTestSupport
import Testing

@Suite("AsyncHTTPClientTransport over TLS")
struct HTTPSRedirectTests {
    @Test(arguments: [
        ("default", RedirectPolicy.default), ("follow", .follow(removingOnCrossOrigin: ["X-Api-Key"])),
        ("sameOriginOnly", .sameOriginOnly), ("custom", .custom { $0.request }),
    ])
    func anHTTPSToHTTPRedirectFailsWithInsecureRedirectAndNothingIsSentInCleartext(
        _ name: String, _ policy: RedirectPolicy
    ) async throws {
        let plain = try RecordingHTTPServer { _ in .status(200, body: "landed") }
        defer { plain.stop() }
        let landing = "http://127.0.0.1:\(plain.port)/landing"
        let secure = try await TLSLoopbackServer { _ in .redirect(to: landing) }
        defer { secure.stop() }

        let result = try await Self.withTrustingTransport { transport in
            await TransportSuite.outcome(
                of: transport.requestPublisher(for: try Self.credentialed(secure.url("/start")), redirectPolicy: policy))
        }
        guard case .failure(.insecureRedirect(let from, let to)) = result else {
            Issue.record("\(name): expected insecureRedirect, got \(result)")
            return
        }
        #expect(from.absoluteString == secure.url("/start"))
        #expect(to.absoluteString == landing)
        // The request went over TLS, credentials and all, exactly once; nothing went in cleartext.
        let requests = secure.requests
        try #require(requests.count == 1)
        #expect(requests[0].path == "/start")
        #expect(requests[0].header("Authorization") == "Bearer SECRET")
        #expect(requests[0].header("Cookie") == "sid=SECRET")
        #expect(plain.requests.isEmpty)
    }

    @Test func neverDeliversAnHTTPSToHTTPRedirectAsTheResponseAndNothingIsSentInCleartext() async throws {
        let plain = try RecordingHTTPServer { _ in .status(200, body: "landed") }
        defer { plain.stop() }
        let landing = "http://127.0.0.1:\(plain.port)/landing"
        let secure = try await TLSLoopbackServer { _ in .redirect(to: landing) }
        defer { secure.stop() }

        let output = try await Self.withTrustingTransport { transport in
            try await TransportSuite.outcome(
                of: transport.requestPublisher(for: try Self.credentialed(secure.url("/start")), redirectPolicy: .never)
            ).get()
        }
        #expect(output.response.statusCode == 302)
        #expect(output.response.value(forHTTPHeaderField: "Location") == landing)
        #expect(String(decoding: output.data, as: UTF8.self) == "moved")
        #expect(secure.requests.count == 1)
        #expect(plain.requests.isEmpty)
    }

    @Test func anHTTPSToHTTPSSameOriginRedirectIsFollowedAndKeepsTheCredentials() async throws {
        let secure = try await TLSLoopbackServer { request in
            request.path == "/start" ? .redirect(to: "https://\(request.host)/final") : .ok(#"{"final":true}"#)
        }
        defer { secure.stop() }

        let output = try await Self.withTrustingTransport { transport in
            try await TransportSuite.outcome(
                of: transport.requestPublisher(for: try Self.credentialed(secure.url("/start")))
            ).get()
        }
        #expect(output.response.statusCode == 200)
        #expect(output.response.url?.absoluteString == secure.url("/final"))
        #expect(String(decoding: output.data, as: UTF8.self) == #"{"final":true}"#)
        let requests = secure.requests
        try #require(requests.count == 2)
        #expect(requests.map(\.path) == ["/start", "/final"])
        #expect(requests[1].header("Authorization") == "Bearer SECRET")
        #expect(requests[1].header("Cookie") == "sid=SECRET")
    }

    @Test func aClientThatDoesNotTrustTheCertificateSendsNoRequest() async throws {
        // What makes the tests above trust the server is the trust root alone: certificate
        // verification is on, and the system's roots do not vouch for the test certificate.
        let secure = try await TLSLoopbackServer { _ in .ok() }
        defer { secure.stop() }
        let transport = AsyncHTTPClientTransport()
        let result = await TransportSuite.outcome(
            of: transport.requestPublisher(for: try Self.credentialed(secure.url("/start"))))
        try await transport.shutdown()
        guard case .failure(.transport(let error, _)) = result else {
            Issue.record("expected a transport error, got \(result)")
            return
        }
        #expect(error.code == .secureConnectionFailed)
        #expect(secure.requests.isEmpty)
    }

    /// Runs `body` with a transport whose client trusts the test certificate as its only trust
    /// root, with certificate and host name verification on (`.fullVerification`, the default),
    /// then shuts the transport down.
    static func withTrustingTransport<T>(_ body: (AsyncHTTPClientTransport) async throws -> T) async throws -> T {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates([try TestCertificate.certificate()])
        var configuration = AsyncHTTPClientTransport.defaultConfiguration
        configuration.tlsConfiguration = tls
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        do {
            let result = try await body(transport)
            try await transport.shutdown()
            return result
        } catch {
            try await transport.shutdown()
            throw error
        }
    }

    /// A GET of `url` with credentials: a bearer token and a cookie.
    static func credentialed(_ url: String) throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.setValue("Bearer SECRET", forHTTPHeaderField: "Authorization")
        request.setValue("sid=SECRET", forHTTPHeaderField: "Cookie")
        request.timeoutInterval = 30
        return request
    }
}
#endif
