import CatalogClient
import CatalogServer
import Dispatch
import Foundation
import StreamsNetworking
import StreamsRecovery
import Synchronization
import Testing

/// The typed client against the catalogue server on an ephemeral loopback port.
@Suite("Typed catalogue client", .serialized)
struct CatalogClientTests {
    static func withServer(
        traffic: CatalogTraffic = CatalogTraffic(), holdingRejections: Int = 0, _ body: (URL) async throws -> Void
    ) async throws {
        let server = try await RunningCatalogServer.start(traffic: traffic, holdingRejections: holdingRejections)
        do {
            try await body(server.baseURL)
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }

    /// What `wait` returns, run off the cooperative pool (it blocks its thread).
    static func offThePool<T: Sendable>(_ wait: @escaping @Sendable () -> T) async -> T {
        await Task.detached(operation: wait).value
    }

    @Test func theDemoPasses() async throws {
        try await Self.withServer { baseURL in
            let lines = Mutex<[String]>([])
            let passed = await Task.detached {
                CatalogDemo(baseURL: baseURL, print: { line in lines.withLock { $0.append(line) } }).run()
            }
            .value
            #expect(passed, "\(lines.withLock { $0 }.joined(separator: "\n"))")
            #expect(lines.withLock { $0 }.count == 11)
        }
    }

    @Test func aNotFoundIsPresentedThroughRecoverAndComesThroughOnOK() async throws {
        try await Self.withServer { baseURL in
            let user = ScriptedUser()
            let client = CatalogClient(baseURL: baseURL, scheduler: DispatchQueue(label: "retries"), presenter: user.present)
            user.willChoose("OK")
            let result = await Self.offThePool { CatalogDemo.result(of: client.product(id: 7)) }
            guard case .failure(let error)? = result else {
                Issue.record("expected a failure, got \(String(describing: result))"); return
            }
            guard case .notFound(let failure) = error else { Issue.record("expected notFound, got \(error)"); return }
            #expect(failure.problem?.detail == "There is no product 7.")
            let shown = user.takePresentations()
            #expect(shown.count == 1)
            #expect(shown.first?.title == "Not Found")
            #expect(shown.first?.message == "What the app asked for could not be found.")
            #expect(shown.first?.options.map(\.title) == ["OK"])
            #expect(shown.first?.automaticChoice == nil)
        }
    }

    @Test func aServerErrorOffersTryAgainWhichSendsOneRequestAndCancelEndsQuietly() async throws {
        let traffic = CatalogTraffic()
        try await Self.withServer(traffic: traffic) { baseURL in
            let user = ScriptedUser()
            let client = CatalogClient(
                baseURL: baseURL, scheduler: DispatchQueue(label: "retries"), backoff: .immediate, presenter: user.present)
            user.willChoose("Try Again", "Cancel")
            let result = await Self.offThePool { CatalogDemo.result(of: client.catalog(at: "crash")) }
            #expect(result == nil, "Cancel finishes the stream without a value or an error")
            let shown = user.takePresentations()
            #expect(shown.map(\.title) == ["Server Error", "Server Error"])
            #expect(shown.first?.message == "The server had a problem. Please try again later.")
            #expect(shown.first?.options.map(\.title) == ["Try Again", "Cancel"])
            // 1 request and 3 automatic retries, then 1 request for the "Try Again".
            #expect(traffic.count("GET /crash") == 5)
        }
    }

    @Test func aRefusedRefreshLogsOutWithoutAskingTheUser() async throws {
        let traffic = CatalogTraffic()
        try await Self.withServer(traffic: traffic) { baseURL in
            let user = ScriptedUser()
            let loggedOut = Mutex(0)
            let decided = Mutex<[ErrorPresentation]>([])
            let errorHandlers = ErrorHandlerChain(fallback: DefaultErrorHandler(logOut: { loggedOut.withLock { $0 += 1 } }))
                .logging { _, presentation in decided.withLock { $0.append(presentation) } }
            let tokens = CatalogTokens(baseURL: baseURL, accessToken: "expired-token", refreshToken: "revoked-token")
            let client = CatalogClient(
                baseURL: baseURL, scheduler: DispatchQueue(label: "retries"), credentials: tokens,
                errorHandlers: errorHandlers, presenter: user.present)
            let result = await Self.offThePool { CatalogDemo.result(of: client.account()) }
            guard case .failure(let error)? = result, case .credentialRefreshFailed = error else {
                Issue.record("expected credentialRefreshFailed, got \(String(describing: result))"); return
            }
            #expect(error.category == .requiresLogout)
            #expect(user.takePresentations().isEmpty, "the user is not asked")
            let presentation = decided.withLock { $0 }.first
            #expect(decided.withLock { $0 }.count == 1)
            #expect(presentation?.title == "Signed Out")
            #expect(presentation?.automaticChoice?.title == "Log Out")
            #expect(loggedOut.withLock { $0 } == 1)
            #expect(traffic.requests == ["GET /account Bearer expired-token", "POST /auth/token"])
            #expect(tokens.refreshes == 0)
        }
    }

    @Test func tenConcurrentRequestsWithAnExpiredTokenCauseOneRefreshAndTenReplays() async throws {
        let traffic = CatalogTraffic()
        // The server answers none of the ten 401s before all ten requests reached it.
        try await Self.withServer(traffic: traffic, holdingRejections: 10) { baseURL in
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpMaximumConnectionsPerHost = 10
            let tokens = CatalogTokens(
                baseURL: baseURL, accessToken: "expired-token", refreshToken: CatalogServer.refreshToken)
            let client = CatalogClient(
                baseURL: baseURL, session: URLSession(configuration: configuration),
                scheduler: DispatchQueue(label: "retries"), credentials: tokens)
            let result = await Self.offThePool {
                CatalogDemo.result(of: Publishers.MergeMany((0..<10).map { _ in client.account() }).collect())
            }
            guard case .success(let received)? = result else {
                Issue.record("expected ten accounts, got \(String(describing: result))"); return
            }
            #expect(received == Array(repeating: Account(id: 7, name: "Ada"), count: 10))
            #expect(client.authenticator.refreshCount == 1)
            #expect(tokens.refreshes == 1)
            #expect(tokens.accessToken == "token-1")
            #expect(traffic.count("POST /auth/token") == 1)
            #expect(traffic.count("GET /account Bearer expired-token") == 10)
            #expect(traffic.count("GET /account Bearer token-1") == 10)
            #expect(traffic.requests.count == 21)
        }
    }
}
