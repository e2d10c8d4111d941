#if canImport(Glibc)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StreamsNetworking
import StreamsTesting
import Testing

/// Redirects against a loopback server that is two origins at once (`127.0.0.1` and
/// `localhost` on the same port): what each policy sends where, and what the subscriber gets.
enum RedirectChecks {
    static let all = [
        TransportCheck("aCrossOriginRedirectDropsTheCredentialsAndStillDeliversTheBody", crossOrigin),
        TransportCheck("aSameOriginRedirectKeepsTheCredentials", sameOrigin),
        TransportCheck("aChangeOfPortIsAChangeOfOrigin", changeOfPort),
        TransportCheck("headersTheCallerMarksSensitiveAreDroppedToo", sensitiveHeaders),
        TransportCheck("sameOriginOnlyDeliversACrossOriginRedirect", sameOriginOnlyDelivers),
        TransportCheck("sameOriginOnlyFollowsASameOriginRedirect", sameOriginOnlyFollows),
        TransportCheck("neverDeliversTheRedirectResponse", never),
        TransportCheck("aCustomPolicyDecidesWithTheCredentialsAlreadyRemoved", custom),
        TransportCheck("aSeeOtherRedirectOfAPostIsFollowedWithAGet", seeOther),
        TransportCheck("theRedirectLimitIsTwentyRedirects", limit),
        TransportCheck("aRedirectToASchemeOtherThanHTTPFailsUnderEveryFollowingPolicy", otherSchemes),
        TransportCheck("aCustomPolicyThatSendsTheRequestToAThirdOriginSendsNoCredentials", customToThirdOrigin),
    ]

    /// A server whose `/start` redirects to `location` (with `PORT` replaced by its port) and
    /// whose every other path answers 200.
    static func redirectingServer(redirectingTo location: String, status: Int = 302) throws -> LoopbackHTTPServer {
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

    static func crossOrigin(_ transport: TransportUnderTest) async throws {
        let server = try redirectingServer(redirectingTo: "http://localhost:PORT/final")
        defer { server.stop() }
        let output = try await TransportSuite.outcome(of: transport.publisher(for: credentialed(server))).get()
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

    static func sameOrigin(_ transport: TransportUnderTest) async throws {
        let server = try redirectingServer(redirectingTo: "http://127.0.0.1:PORT/final")
        defer { server.stop() }
        let output = try await TransportSuite.outcome(of: transport.publisher(for: credentialed(server))).get()
        #expect(output.response.statusCode == 200)
        let final = try #require(server.requests.last)
        #expect(final.path == "/final")
        #expect(final.header("Authorization") == "Bearer T0KEN")
        #expect(final.header("Proxy-Authorization") == "Basic cHJveHk=")
        #expect(final.header("Cookie") == "sid=C00KIE")
    }

    static func changeOfPort(_ transport: TransportUnderTest) async throws {
        let other = try LoopbackHTTPServer { _ in .ok() }
        defer { other.stop() }
        let server = try redirectingServer(redirectingTo: "http://127.0.0.1:\(other.port)/final")
        defer { server.stop() }
        _ = try await TransportSuite.outcome(of: transport.publisher(for: credentialed(server))).get()
        let final = try #require(other.requests.first)
        #expect(final.header("Authorization") == nil)
        #expect(final.header("Cookie") == nil)
    }

    static func sensitiveHeaders(_ transport: TransportUnderTest) async throws {
        let server = try redirectingServer(redirectingTo: "http://localhost:PORT/final")
        defer { server.stop() }
        let publisher = transport.publisher(
            for: credentialed(server), redirectPolicy: .follow(removingOnCrossOrigin: ["x-API-key"]))
        _ = try await TransportSuite.outcome(of: publisher).get()
        let final = try #require(server.requests.last)
        #expect(final.header("X-Api-Key") == nil)
        #expect(final.header("Authorization") == nil)
        #expect(final.header("X-Trace") == "trace-1")
    }

    static func sameOriginOnlyDelivers(_ transport: TransportUnderTest) async throws {
        let server = try redirectingServer(redirectingTo: "http://localhost:PORT/final")
        defer { server.stop() }
        let publisher = transport.publisher(for: credentialed(server), redirectPolicy: .sameOriginOnly)
        let output = try await TransportSuite.outcome(of: publisher).get()
        #expect(output.response.statusCode == 302)
        #expect(output.response.value(forHTTPHeaderField: "Location") == "http://localhost:\(server.port)/final")
        #expect(server.requests.count == 1)
    }

    static func sameOriginOnlyFollows(_ transport: TransportUnderTest) async throws {
        let server = try redirectingServer(redirectingTo: "http://127.0.0.1:PORT/final")
        defer { server.stop() }
        let publisher = transport.publisher(for: credentialed(server), redirectPolicy: .sameOriginOnly)
        let output = try await TransportSuite.outcome(of: publisher).get()
        #expect(output.response.statusCode == 200)
        #expect(server.requests.last?.header("Authorization") == "Bearer T0KEN")
    }

    static func never(_ transport: TransportUnderTest) async throws {
        let server = try redirectingServer(redirectingTo: "http://127.0.0.1:PORT/final", status: 307)
        defer { server.stop() }
        let publisher = transport.publisher(for: credentialed(server), redirectPolicy: .never)
        let output = try await TransportSuite.outcome(of: publisher).get()
        #expect(output.response.statusCode == 307)
        #expect(String(decoding: output.data, as: UTF8.self) == (transport.keepsRedirectBody ? "moved" : ""))
        #expect(server.requests.map(\.path) == ["/start"])
    }

    static func custom(_ transport: TransportUnderTest) async throws {
        let server = try redirectingServer(redirectingTo: "http://localhost:PORT/final")
        defer { server.stop() }
        let seen = Locked<[RedirectPolicy.Redirect]>([])
        let follow = RedirectPolicy.custom { redirect in
            seen.withLock { $0.append(redirect) }
            var request = redirect.request
            request.setValue("yes", forHTTPHeaderField: "X-Followed")
            return request
        }
        let output = try await TransportSuite.outcome(
            of: transport.publisher(for: credentialed(server), redirectPolicy: follow)
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
        let stopped = try await TransportSuite.outcome(
            of: transport.publisher(for: credentialed(server), redirectPolicy: stop)
        ).get()
        #expect(stopped.response.statusCode == 302)
        #expect(server.requests.count == 3)  // two for the first request, one for the second
    }

    static func otherSchemes(_ transport: TransportUnderTest) async throws {
        // (A `file:` Location is turned by FoundationNetworking into a path on the same origin
        // before the policy sees it; the policy's refusal of `file` is checked on its decision.)
        let targets = [
            "http+unix://%2Ftmp%2Fstreams-redirect.sock/final", "ftp://127.0.0.1:PORT/final",
            "gopher://127.0.0.1:PORT/final",
        ]
        let policies: [(String, RedirectPolicy)] = [
            ("default", .default), ("follow", .follow(removingOnCrossOrigin: ["X-Api-Key"])),
            ("sameOriginOnly", .sameOriginOnly), ("custom", .custom { $0.request }),
        ]
        for target in targets {
            let server = try redirectingServer(redirectingTo: target)
            defer { server.stop() }
            for (name, policy) in policies {
                var request = credentialed(server)
                request.timeoutInterval = 5  // a follower would wait for an FTP greeting that never comes
                let result = await TransportSuite.outcome(of: transport.publisher(for: request, redirectPolicy: policy))
                guard case .failure(let error) = result, case .insecureRedirect(let from, let to) = error else {
                    Issue.record("\(name) to \(target): expected insecureRedirect, got \(result)")
                    continue
                }
                #expect(from.path == "/start")
                #expect(to.scheme == String(target.prefix { $0 != ":" }))
                #expect(error.category == .nonRetryable)
            }
            #expect(server.requests.map(\.path) == Array(repeating: "/start", count: policies.count), "\(target)")
        }
    }

    static func customToThirdOrigin(_ transport: TransportUnderTest) async throws {
        let third = try LoopbackHTTPServer { _ in .ok() }
        defer { third.stop() }
        // A same-origin redirect keeps the credentials in the request the closure is given; the
        // closure sends it elsewhere, and adds a token of its own on the way.
        let server = try redirectingServer(redirectingTo: "http://127.0.0.1:PORT/final")
        defer { server.stop() }
        let elsewhere = RedirectPolicy.custom { redirect in
            var request = redirect.request
            request.url = third.url("/stolen")
            request.setValue("sid=ADDED", forHTTPHeaderField: "Cookie")
            request.setValue("yes", forHTTPHeaderField: "X-Followed")
            return request
        }
        let output = try await TransportSuite.outcome(
            of: transport.publisher(for: credentialed(server), redirectPolicy: elsewhere)
        ).get()
        #expect(output.response.statusCode == 200)
        let stolen = try #require(third.requests.first)
        #expect(stolen.path == "/stolen")
        #expect(stolen.header("Authorization") == nil)
        #expect(stolen.header("Proxy-Authorization") == nil)
        #expect(stolen.header("Cookie") == nil)
        #expect(stolen.header("X-Followed") == "yes")

        // Back to the origin the request came from, or on to the redirect's own target, the
        // closure's request is sent as it returns it.
        let cross = try redirectingServer(redirectingTo: "http://localhost:PORT/final")
        defer { cross.stop() }
        let home = RedirectPolicy.custom { redirect in
            var request = redirect.request
            request.url = cross.url("/home")
            request.setValue("Bearer T0KEN", forHTTPHeaderField: "Authorization")
            return request
        }
        _ = try await TransportSuite.outcome(of: transport.publisher(for: credentialed(cross), redirectPolicy: home))
            .get()
        let back = try #require(cross.requests.last)
        #expect(back.path == "/home")
        #expect(back.header("Authorization") == "Bearer T0KEN")
    }

    static func seeOther(_ transport: TransportUnderTest) async throws {
        let server = try redirectingServer(redirectingTo: "http://127.0.0.1:PORT/final", status: 303)
        defer { server.stop() }
        var request = TransportSuite.request("POST", server.url("/start"))
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let output = try await TransportSuite.outcome(of: transport.publisher(for: request)).get()
        #expect(output.response.statusCode == 200)
        #expect(server.requests.map(\.method) == ["POST", "GET"])
        #expect(server.requests.last?.body.isEmpty == true)
    }

    static func limit(_ transport: TransportUnderTest) async throws {
        let server = try redirectingServer(redirectingTo: "http://127.0.0.1:PORT/start")
        defer { server.stop() }
        let result = await TransportSuite.outcome(of: transport.publisher(for: URLRequest(url: server.url("/start"))))
        guard case .failure(.transport(let error, _)) = result else {
            Issue.record("expected a transport error, got \(result)")
            return
        }
        #expect(error.code == .httpTooManyRedirects)
        #expect(server.requests.count == 21)  // the first request and 20 redirects
    }
}
#endif
