#if canImport(Glibc)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsNetworking
import StreamsTesting
import Testing

/// `SECRET` in every place a secret can be, sent through a failing request over the transport:
/// no string the library makes of the publisher, its subscription or the failure shows it.
enum SecretChecks {
    static let all = [
        TransportCheck("aRequestThatCannotConnectShowsNoSecret", cannotConnect),
        TransportCheck("aRequestAnsweredWithAnErrorShowsNoSecret", errorStatus),
    ]

    static let secret = SecretStrings.secret

    static func expectNoSecret(in value: Any, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        SecretStrings.expectNoSecret(in: value, what, sourceLocation: sourceLocation)
    }

    /// A POST to `127.0.0.1:port` with the secret as the URL's password, as the value of every
    /// secret query item name, in every credential header, in a header the policy marks
    /// sensitive, and in its body.
    static func secretRequest(port: Int) -> URLRequest {
        let url = URL(
            string: "http://user:\(secret)@127.0.0.1:\(port)/x?token=\(secret)&Access_Token=\(secret)"
                + "&API_KEY=\(secret)&key=\(secret)&PassWord=\(secret)&secret=\(secret)&Signature=\(secret)&page=2")!
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("Bearer \(secret)", forHTTPHeaderField: "Authorization")
        request.setValue("Basic \(secret)", forHTTPHeaderField: "Proxy-Authorization")
        request.setValue("sid=\(secret)", forHTTPHeaderField: "Cookie")
        request.setValue("sid=\(secret)", forHTTPHeaderField: "Set-Cookie")
        request.setValue(secret, forHTTPHeaderField: "X-Api-Key")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"password":"\#(secret)"}"#.utf8)
        request.timeoutInterval = 30
        return request
    }

    static let policy = RedirectPolicy.follow(removingOnCrossOrigin: ["X-Api-Key"])

    /// Checks the publisher of `request` on `transport` and a subscription to it that has not
    /// started, before any I/O.
    static func checkPublisher(of request: URLRequest, on transport: some HTTPTransport) {
        let publisher = transport.requestPublisher(for: request, redirectPolicy: policy)
        expectNoSecret(in: publisher, "the request publisher")
        #expect(String(describing: publisher).contains("<redacted>"))
        #expect(String(describing: publisher).contains("page=2"))  // what is not a secret stays
        let waiting = TestSubscriber<NetworkResponse<Data>, NetworkError>(initialDemand: nil)
        publisher.subscribe(waiting)
        if let subscription = waiting.subscription {
            expectNoSecret(in: subscription, "the request subscription")
        } else {
            Issue.record("no subscription")
        }
        waiting.cancel()
    }

    static func cannotConnect(_ transport: TransportUnderTest) async throws {
        let request = secretRequest(port: try MisbehavingServer.closedPort())
        checkPublisher(of: request, on: transport.make())
        let error = await TransportSuite.failure(of: transport.publisher(for: request, redirectPolicy: policy))
        guard let error, case .transport = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        expectNoSecret(in: error, "the transport error")
    }

    static func errorStatus(_ transport: TransportUnderTest) async throws {
        let server = try RecordingHTTPServer { _ in
            .status(
                503, ["Set-Cookie": "sid=\(secret)", "Retry-After": "0", "Content-Type": "application/json"],
                body: #"{"detail":"token=\#(secret) rejected","errors":{"password":"password=\#(secret)"}}"#)
        }
        defer { server.stop() }
        let request = secretRequest(port: server.port)
        checkPublisher(of: request, on: transport.make())
        let response = try await TransportSuite.outcome(of: transport.publisher(for: request, redirectPolicy: policy))
            .get()
        expectNoSecret(in: response, "the 503 response")
        let error = await TransportSuite.failure(
            of: transport.publisher(for: request, redirectPolicy: policy).validateStatus())
        guard let error, case .server(let failure) = error else {
            Issue.record("expected a server error, got \(String(describing: error))")
            return
        }
        #expect(failure.reason?.contains(secret) == true)  // the reason itself is the server's
        expectNoSecret(in: error, "the 503 error")
        expectNoSecret(in: failure, "the 503 error response")
        expectNoSecret(in: Subscribers.Completion<NetworkError>.failure(error), "a failure completion")
        #expect(server.requests.count == 2)
    }
}
#endif
