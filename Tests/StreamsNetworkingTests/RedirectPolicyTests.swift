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

/// The redirect policy's decisions, and a refused downgrade delivered through a task delegate.
/// What each policy sends where over a real loopback server is in the transport suite
/// (`TransportSuite`), which runs against every transport.
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

    @Test(arguments: ["http+unix://%2Fvar%2Frun%2Fdocker.sock/containers", "ftp://api.example.com/b", "file:///etc/passwd"])
    func everyFollowingPolicyRefusesARedirectToANonHTTPScheme(_ target: String) throws {
        let policies: [RedirectPolicy] = [
            .default, .follow(removingOnCrossOrigin: ["X-Api-Key"]), .sameOriginOnly, .custom { $0.request },
        ]
        for policy in policies {
            let redirect = try Self.redirect(from: "http://api.example.com/a", to: target)
            guard case .refuse(.insecureRedirect(let from, let to)) = policy.decision(for: redirect) else {
                Issue.record("\(target): expected a refusal")
                continue
            }
            #expect(from.absoluteString == "http://api.example.com/a")
            #expect(to.absoluteString == target)
        }
        let redirect = try Self.redirect(from: "http://api.example.com/a", to: target)
        guard case .deliverRedirectResponse = RedirectPolicy.never.decision(for: redirect) else {
            Issue.record("expected never to deliver the redirect response")
            return
        }
    }

    @Test func aCustomPolicyCannotTurnARedirectIntoANonHTTPOne() throws {
        let redirect = try Self.redirect(from: "http://api.example.com/a", to: "http://api.example.com/b")
        let policy = RedirectPolicy.custom { _ in URLRequest(url: URL(string: "http+unix://%2Ftmp%2Fs.sock/b")!) }
        guard case .refuse(.insecureRedirect) = policy.decision(for: redirect) else {
            Issue.record("expected a refusal")
            return
        }
    }

    @Test func aCustomPolicysRequestToAThirdOriginLosesItsCredentials() throws {
        let redirect = try Self.redirect(from: "https://api.example.com/a", to: "https://api.example.com/b")
        let elsewhere = RedirectPolicy.custom { redirect in
            var request = redirect.request
            request.url = URL(string: "https://evil.example.net/b")
            request.setValue("sid=1", forHTTPHeaderField: "Cookie")
            return request
        }
        guard case .follow(let sent) = elsewhere.decision(for: redirect) else {
            Issue.record("expected a follow")
            return
        }
        #expect(sent.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(sent.value(forHTTPHeaderField: "Cookie") == nil)
        let kept = RedirectPolicy.custom { redirect in
            var request = redirect.request
            request.setValue("sid=1", forHTTPHeaderField: "Cookie")
            return request
        }
        guard case .follow(let same) = kept.decision(for: redirect) else {
            Issue.record("expected a follow")
            return
        }
        #expect(same.value(forHTTPHeaderField: "Authorization") == "Bearer T0KEN")
        #expect(same.value(forHTTPHeaderField: "Cookie") == "sid=1")
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
