#if canImport(Glibc)
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StreamsNetworking
import StreamsTesting
import Testing

/// The authenticator against a loopback server that accepts only `Bearer fresh`: single-flight
/// refresh, one replay per request, a failed refresh, and credentials kept to their origin.
enum AuthenticatorChecks {
    static let all = [
        TransportCheck("tenConcurrentRequestsRejectedWith401CauseOneRefreshAndTenReplays", tenConcurrent),
        TransportCheck("aFailedRefreshFailsEveryWaitingRequestWithRequiresLogout", failedRefresh),
        TransportCheck("aSecond401AfterTheReplayIsDelivered", second401),
        TransportCheck("withNoStoredCredentialItRefreshesBeforeTheFirstRequest", noStoredCredential),
        TransportCheck("aRefreshedCredentialNeverReachesAnotherOrigin", otherOrigin),
    ]

    /// A server that answers 200 to `Bearer fresh` and 401 to anything else, and whose `/start`
    /// redirects to its other origin. With `holding`, it holds its 401s until it has received
    /// that many requests to reject, so that they all were sent before any of them learns of the
    /// 401, and signals `rejections` for each.
    static func rejectingServer(holding: Int = 0, rejections: DispatchSemaphore? = nil) throws -> LoopbackHTTPServer {
        let arrived = Locked(0)
        let allArrived = DispatchSemaphore(value: 0)
        return try LoopbackHTTPServer { request in
            if request.path == "/start" {
                return .redirect(to: "http://localhost:\(request.host.split(separator: ":").last ?? "")/final")
            }
            guard request.header("Authorization") == "Bearer fresh" else {
                let count = arrived.withLock { count in
                    count += 1
                    return count
                }
                if count == holding {
                    for _ in 0..<holding { allArrived.signal() }
                }
                if count <= holding { _ = allArrived.wait(timeout: .now() + 30) }
                rejections?.signal()
                return LoopbackHTTPServer.Response(status: 401, body: #"{"error":"expired"}"#)
            }
            return .ok()
        }
    }

    /// The outcomes of `count` requests to `url` through `authenticator`, all subscribed at once.
    static func outcomes(_ count: Int, to url: URL, through authenticator: Authenticator) async
        -> [Result<NetworkResponse<Data>, NetworkError>]
    {
        await withTaskGroup(of: Result<NetworkResponse<Data>, NetworkError>.self) { group in
            for _ in 0..<count {
                group.addTask { await TransportSuite.outcome(of: authenticator.requestPublisher(for: url)) }
            }
            var results: [Result<NetworkResponse<Data>, NetworkError>] = []
            for await result in group { results.append(result) }
            return results
        }
    }

    static func tenConcurrent(_ transport: TransportUnderTest) async throws {
        let rejections = DispatchSemaphore(value: 0)
        let refreshMayEnd = DispatchSemaphore(value: 0)
        let server = try rejectingServer(holding: 10, rejections: rejections)
        defer { server.stop() }
        let provider = TestCredentialProvider(gate: refreshMayEnd)
        let authenticator = Authenticator(transport: transport.make(), origin: server.url("/"), provider: provider)
        // The refresh ends only once the server has rejected all ten, so that they all meet it.
        Thread.detachNewThread {
            for _ in 0..<10 { _ = rejections.wait(timeout: .now() + 30) }
            refreshMayEnd.signal()
        }
        let results = await outcomes(10, to: server.url("/me"), through: authenticator)
        #expect(results.count == 10)
        for result in results {
            #expect((try? result.get())?.response.statusCode == 200)
        }
        #expect(provider.refreshes.withLock { $0 } == [.bearer("stale")])
        #expect(authenticator.refreshCount == 1)
        let sent = server.requests.map { $0.header("Authorization") }
        #expect(sent.filter { $0 == "Bearer stale" }.count == 10)
        #expect(sent.filter { $0 == "Bearer fresh" }.count == 10)
        #expect(sent.count == 20)
    }

    static func failedRefresh(_ transport: TransportUnderTest) async throws {
        let rejections = DispatchSemaphore(value: 0)
        let refreshMayEnd = DispatchSemaphore(value: 0)
        let server = try rejectingServer(holding: 10, rejections: rejections)
        defer { server.stop() }
        let provider = TestCredentialProvider(fails: true, gate: refreshMayEnd)
        let authenticator = Authenticator(transport: transport.make(), origin: server.url("/"), provider: provider)
        Thread.detachNewThread {
            for _ in 0..<10 { _ = rejections.wait(timeout: .now() + 30) }
            refreshMayEnd.signal()
        }
        let results = await outcomes(10, to: server.url("/me"), through: authenticator)
        #expect(results.count == 10)
        for result in results {
            guard case .failure(let error) = result, case .credentialRefreshFailed = error else {
                Issue.record("expected credentialRefreshFailed, got \(result)")
                continue
            }
            #expect(error.category == .requiresLogout)
            #expect(error.errorDescription == "Your session has expired. Please sign in again.")
        }
        #expect(provider.refreshes.withLock { $0.count } == 1)
        #expect(server.requests.count == 10)  // no replay
    }

    static func second401(_ transport: TransportUnderTest) async throws {
        let server = try LoopbackHTTPServer { _ in LoopbackHTTPServer.Response(status: 401) }
        defer { server.stop() }
        let provider = TestCredentialProvider()
        let authenticator = Authenticator(transport: transport.make(), origin: server.url("/"), provider: provider)
        let result = await TransportSuite.outcome(
            of: authenticator.requestPublisher(for: server.url("/me")).validateStatus())
        guard case .failure(let error) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.category == .requiresLogout)
        #expect(server.requests.map { $0.header("Authorization") } == ["Bearer stale", "Bearer fresh"])
    }

    static func noStoredCredential(_ transport: TransportUnderTest) async throws {
        let server = try rejectingServer()
        defer { server.stop() }
        let provider = TestCredentialProvider(stored: nil)
        let authenticator = Authenticator(transport: transport.make(), origin: server.url("/"), provider: provider)
        let output = try await TransportSuite.outcome(of: authenticator.requestPublisher(for: server.url("/me"))).get()
        #expect(output.response.statusCode == 200)
        #expect(provider.refreshes.withLock { $0 } == [nil])
        #expect(server.requests.map { $0.header("Authorization") } == ["Bearer fresh"])
    }

    static func otherOrigin(_ transport: TransportUnderTest) async throws {
        let server = try rejectingServer()
        defer { server.stop() }
        let provider = TestCredentialProvider()
        let authenticator = Authenticator(transport: transport.make(), origin: server.url("/"), provider: provider)
        // Refreshed on its own origin...
        let own = try await TransportSuite.outcome(of: authenticator.requestPublisher(for: server.url("/me"))).get()
        #expect(own.response.statusCode == 200)
        // ...then a request to the other origin, and a redirect to it.
        let other = try await TransportSuite.outcome(
            of: authenticator.requestPublisher(for: server.url("/me", host: "localhost"))
        ).get()
        #expect(other.response.statusCode == 401)
        let redirected = try await TransportSuite.outcome(of: authenticator.requestPublisher(for: server.url("/start")))
            .get()
        #expect(redirected.response.statusCode == 401)
        let atOtherOrigin = server.requests.filter { $0.host.hasPrefix("localhost") }
        #expect(atOtherOrigin.map(\.path) == ["/me", "/final"])
        #expect(atOtherOrigin.allSatisfy { $0.header("Authorization") == nil })
        #expect(authenticator.refreshCount == 1)  // the other origin's 401s are not the authenticator's business
    }
}
#endif
