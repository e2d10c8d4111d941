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

/// Redirects against a loopback server that is two origins at once (`127.0.0.1` and
/// `localhost` on the same port): what each policy sends where, and what the subscriber gets.
@Suite("Redirect policy")
struct RedirectPolicyTests {
    typealias Output = URLSession.RequestPublisher.Output

    /// The outcome of one subscription to `publisher`, waited for without blocking a thread.
    static func outcome<P: Publisher>(of publisher: P) async -> Result<P.Output, NetworkError>
    where P.Failure == NetworkError {
        let holder = Locked<AnyCancellable?>(nil)
        let value = Locked<P.Output?>(nil)
        return await withCheckedContinuation { continuation in
            let cancellable = publisher.sink(
                receiveCompletion: { completion in
                    switch completion {
                    case .failure(let error): continuation.resume(returning: .failure(error))
                    case .finished:
                        let output = value.withLock { $0 }
                        continuation.resume(returning: output.map { .success($0) } ?? .failure(.invalidResponse))
                    }
                },
                receiveValue: { output in value.withLock { $0 = output } })
            holder.withLock { $0 = cancellable }
        }
    }

    /// A server whose `/start` redirects to `location` (with `PORT` replaced by its port) and
    /// whose every other path answers 200.
    static func server(redirectingTo location: String, status: Int = 302) throws -> LoopbackHTTPServer {
        let port = Locked(0)
        let server = try LoopbackHTTPServer { request in
            guard request.path == "/start" else { return .ok(#"{"final":true}"#) }
            let target = location.replacingOccurrences(of: "PORT", with: "\(port.withLock { $0 })")
            return .redirect(status, to: target)
        }
        port.withLock { $0 = server.port }
        return server
    }

    /// A request to `/start` that carries every kind of credential, and a header that is not one.
    static func credentialed(_ server: LoopbackHTTPServer) -> URLRequest {
        var request = URLRequest(url: server.url("/start"))
        request.setValue("Bearer T0KEN", forHTTPHeaderField: "Authorization")
        request.setValue("Basic cHJveHk=", forHTTPHeaderField: "Proxy-Authorization")
        request.setValue("sid=C00KIE", forHTTPHeaderField: "Cookie")
        request.setValue("k3y", forHTTPHeaderField: "X-Api-Key")
        request.setValue("trace-1", forHTTPHeaderField: "X-Trace")
        request.timeoutInterval = 30
        return request
    }

    static let session = URLSession(configuration: .ephemeral)

    @Test func aCrossOriginRedirectDropsTheCredentialsAndStillDeliversTheBody() async throws {
        let server = try Self.server(redirectingTo: "http://localhost:PORT/final")
        defer { server.stop() }
        let output = try await Self.outcome(of: Self.session.requestPublisher(for: Self.credentialed(server))).get()
        #expect(output.response.statusCode == 200)
        #expect(String(decoding: output.data, as: UTF8.self) == #"{"final":true}"#)
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[0].header("Authorization") == "Bearer T0KEN")
        #expect(requests[0].header("Cookie") == "sid=C00KIE")
        let final = requests[1]
        #expect(final.host.hasPrefix("localhost"))
        #expect(final.header("Authorization") == nil)
        #expect(final.header("Proxy-Authorization") == nil)
        #expect(final.header("Cookie") == nil)
        #expect(final.header("X-Trace") == "trace-1")
        #expect(final.header("X-Api-Key") == "k3y")  // not marked sensitive by the default policy
    }

    @Test func aSameOriginRedirectKeepsTheCredentials() async throws {
        let server = try Self.server(redirectingTo: "http://127.0.0.1:PORT/final")
        defer { server.stop() }
        let output = try await Self.outcome(of: Self.session.requestPublisher(for: Self.credentialed(server))).get()
        #expect(output.response.statusCode == 200)
        let final = try #require(server.requests.last)
        #expect(final.path == "/final")
        #expect(final.header("Authorization") == "Bearer T0KEN")
        #expect(final.header("Proxy-Authorization") == "Basic cHJveHk=")
        #expect(final.header("Cookie") == "sid=C00KIE")
    }

    @Test func aChangeOfPortIsAChangeOfOrigin() async throws {
        let other = try LoopbackHTTPServer { _ in .ok() }
        defer { other.stop() }
        let server = try Self.server(redirectingTo: "http://127.0.0.1:\(other.port)/final")
        defer { server.stop() }
        _ = try await Self.outcome(of: Self.session.requestPublisher(for: Self.credentialed(server))).get()
        let final = try #require(other.requests.first)
        #expect(final.header("Authorization") == nil)
        #expect(final.header("Cookie") == nil)
    }

    @Test func headersTheCallerMarksSensitiveAreDroppedToo() async throws {
        let server = try Self.server(redirectingTo: "http://localhost:PORT/final")
        defer { server.stop() }
        let publisher = Self.session.requestPublisher(
            for: Self.credentialed(server), redirectPolicy: .follow(removingOnCrossOrigin: ["x-API-key"]))
        _ = try await Self.outcome(of: publisher).get()
        let final = try #require(server.requests.last)
        #expect(final.header("X-Api-Key") == nil)
        #expect(final.header("Authorization") == nil)
        #expect(final.header("X-Trace") == "trace-1")
    }

    @Test func sameOriginOnlyDeliversACrossOriginRedirect() async throws {
        let server = try Self.server(redirectingTo: "http://localhost:PORT/final")
        defer { server.stop() }
        let publisher = Self.session.requestPublisher(for: Self.credentialed(server), redirectPolicy: .sameOriginOnly)
        let output = try await Self.outcome(of: publisher).get()
        #expect(output.response.statusCode == 302)
        #expect(output.response.value(forHTTPHeaderField: "Location") == "http://localhost:\(server.port)/final")
        #expect(server.requests.count == 1)
    }

    @Test func sameOriginOnlyFollowsASameOriginRedirect() async throws {
        let server = try Self.server(redirectingTo: "http://127.0.0.1:PORT/final")
        defer { server.stop() }
        let publisher = Self.session.requestPublisher(for: Self.credentialed(server), redirectPolicy: .sameOriginOnly)
        let output = try await Self.outcome(of: publisher).get()
        #expect(output.response.statusCode == 200)
        #expect(server.requests.last?.header("Authorization") == "Bearer T0KEN")
    }

    @Test func neverDeliversTheRedirectResponse() async throws {
        let server = try Self.server(redirectingTo: "http://127.0.0.1:PORT/final", status: 307)
        defer { server.stop() }
        let publisher = Self.session.requestPublisher(for: Self.credentialed(server), redirectPolicy: .never)
        let output = try await Self.outcome(of: publisher).get()
        #expect(output.response.statusCode == 307)
        #expect(server.requests.map(\.path) == ["/start"])
    }

    @Test func aCustomPolicyDecidesWithTheCredentialsAlreadyRemoved() async throws {
        let server = try Self.server(redirectingTo: "http://localhost:PORT/final")
        defer { server.stop() }
        let seen = Locked<[RedirectPolicy.Redirect]>([])
        let follow = RedirectPolicy.custom { redirect in
            seen.withLock { $0.append(redirect) }
            var request = redirect.request
            request.setValue("yes", forHTTPHeaderField: "X-Followed")
            return request
        }
        let output = try await Self.outcome(
            of: Self.session.requestPublisher(for: Self.credentialed(server), redirectPolicy: follow)
        ).get()
        #expect(output.response.statusCode == 200)
        let redirect = try #require(seen.withLock { $0 }.first)
        #expect(redirect.isCrossOrigin)
        #expect(redirect.response.statusCode == 302)
        #expect(redirect.request.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(redirect.request.value(forHTTPHeaderField: "Cookie") == nil)
        #expect(server.requests.last?.header("X-Followed") == "yes")
        #expect(server.requests.last?.header("Authorization") == nil)

        let stop = RedirectPolicy.custom { _ in nil }
        let stopped = try await Self.outcome(
            of: Self.session.requestPublisher(for: Self.credentialed(server), redirectPolicy: stop)
        ).get()
        #expect(stopped.response.statusCode == 302)
        #expect(server.requests.count == 3)  // two for the first request, one for the second
    }

    @Test func theSessionsRedirectLimitStillApplies() async throws {
        let server = try Self.server(redirectingTo: "http://127.0.0.1:PORT/start")
        defer { server.stop() }
        let result = await Self.outcome(of: Self.session.requestPublisher(for: URLRequest(url: server.url("/start"))))
        guard case .failure(.transport(let error, _)) = result else {
            Issue.record("expected a transport error, got \(result)")
            return
        }
        #expect(error.code == .httpTooManyRedirects)
        #expect(server.requests.count == 21)  // FoundationNetworking's limit: 20 redirects
    }

    // MARK: - https to http

    /// A 302 from `from` to `to`, as the session would propose it: the same headers, a new URL.
    static func redirect(from: String, to: String) throws -> RedirectPolicy.Redirect {
        let fromURL = try #require(URL(string: from))
        let toURL = try #require(URL(string: to))
        let response = try #require(
            HTTPURLResponse(url: fromURL, statusCode: 302, httpVersion: "HTTP/1.1", headerFields: ["Location": to]))
        var request = URLRequest(url: toURL)
        request.setValue("Bearer T0KEN", forHTTPHeaderField: "Authorization")
        return RedirectPolicy.Redirect(response: response, request: request)
    }

    // A TLS loopback server would need a certificate the session trusts, which FoundationNetworking
    // offers no way to add; the decision is checked directly, and its delivery through a task
    // delegate below.
    @Test(arguments: [
        ("default", RedirectPolicy.default), ("follow", .follow(removingOnCrossOrigin: ["X-Api-Key"])),
        ("sameOriginOnly", .sameOriginOnly), ("custom", .custom { $0.request }),
    ])
    func everyFollowingPolicyRefusesHTTPSToHTTP(_ name: String, _ policy: RedirectPolicy) throws {
        let redirect = try Self.redirect(from: "https://api.example.com/a", to: "http://api.example.com/b")
        guard case .refuse(let error) = policy.decision(for: redirect) else {
            Issue.record("\(name): expected a refusal")
            return
        }
        guard case .insecureRedirect(let from, let to) = error else {
            Issue.record("\(name): expected insecureRedirect, got \(error)")
            return
        }
        #expect(from.absoluteString == "https://api.example.com/a")
        #expect(to.absoluteString == "http://api.example.com/b")
        #expect(error.category == .nonRetryable)
        #expect(error.errorDescription == "The server tried to move the connection to one that is not secure.")
    }

    @Test func aCustomPolicyCannotTurnARedirectIntoADowngrade() throws {
        let redirect = try Self.redirect(from: "https://api.example.com/a", to: "https://cdn.example.com/b")
        let policy = RedirectPolicy.custom { _ in URLRequest(url: URL(string: "http://cdn.example.com/b")!) }
        guard case .refuse(.insecureRedirect) = policy.decision(for: redirect) else {
            Issue.record("expected a refusal")
            return
        }
    }

    @Test func neverDeliversEvenADowngradeAndHTTPSToHTTPSIsFollowed() throws {
        let downgrade = try Self.redirect(from: "https://api.example.com/a", to: "http://api.example.com/b")
        guard case .deliverRedirectResponse = RedirectPolicy.never.decision(for: downgrade) else {
            Issue.record("expected the redirect response")
            return
        }
        let secure = try Self.redirect(from: "https://api.example.com/a", to: "https://api.example.com/b")
        guard case .follow(let request) = RedirectPolicy.default.decision(for: secure) else {
            Issue.record("expected a follow")
            return
        }
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer T0KEN")
        let upgrade = try Self.redirect(from: "http://api.example.com/a", to: "https://api.example.com/b")
        guard case .follow(let upgraded) = RedirectPolicy.default.decision(for: upgrade) else {
            Issue.record("expected a follow")
            return
        }
        #expect(upgraded.value(forHTTPHeaderField: "Authorization") == nil)  // the scheme is part of the origin
    }

    @Test func aRefusedDowngradeFailsTheRequestWithInsecureRedirect() async throws {
        // A session whose task does what FoundationNetworking does on a redirect: asks the task's
        // delegate, and ends with the redirect response when told not to follow.
        let session = DowngradingSession()
        var request = URLRequest(url: URL(string: "https://api.example.com/a")!)
        request.setValue("Bearer T0KEN", forHTTPHeaderField: "Authorization")
        let result = await Self.outcome(of: session.requestPublisher(for: request))
        guard case .failure(.insecureRedirect(let from, let to)) = result else {
            Issue.record("expected insecureRedirect, got \(result)")
            return
        }
        #expect(from.absoluteString == "https://api.example.com/a")
        #expect(to.absoluteString == "http://api.example.com/b")
        #expect(session.followed.withLock { $0 } == [nil])
    }
}

/// A session whose data task meets a redirect from `https` to `http` when resumed: it asks the
/// task's delegate, as URLSession does, records the request the delegate chose, and ends with the
/// redirect response if the delegate chose none.
final class DowngradingSession: URLSession, @unchecked Sendable {
    let followed = Locked<[URLRequest?]>([])

    final class Task: URLSessionDataTask, @unchecked Sendable {
        let session: DowngradingSession
        let request: URLRequest
        let handler: @Sendable (Data?, URLResponse?, (any Error)?) -> Void

        init(
            session: DowngradingSession, request: URLRequest,
            handler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
        ) {
            self.session = session
            self.request = request
            self.handler = handler
            super.init()
        }

        override func resume() {
            let response = HTTPURLResponse(
                url: request.url!, statusCode: 302, httpVersion: "HTTP/1.1",
                headerFields: ["Location": "http://api.example.com/b"])!
            var next = request
            next.url = URL(string: "http://api.example.com/b")
            let session = session
            let handler = handler
            guard let delegate else {
                // No one to ask: end with the redirect response, so that the test fails rather than hangs.
                handler(Data("moved".utf8), response, nil)
                return
            }
            delegate.urlSession(session, task: self, willPerformHTTPRedirection: response, newRequest: next) { chosen in
                session.followed.withLock { $0.append(chosen) }
                if chosen == nil { handler(Data("moved".utf8), response, nil) }
            }
        }

        override func cancel() {}
    }

    init() {
        super.init(configuration: .ephemeral, delegate: nil, delegateQueue: nil)
    }

    override func dataTask(
        with request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDataTask {
        Task(session: self, request: request, handler: completionHandler)
    }
}
#endif
