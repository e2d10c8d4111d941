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
    static func withServer(_ body: (URL) async throws -> Void) async throws {
        let server = try await RunningCatalogServer.start()
        do {
            try await body(server.baseURL)
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }

    @Test func theDemoPasses() async throws {
        try await Self.withServer { baseURL in
            let lines = Mutex<[String]>([])
            let passed = await Task.detached {
                CatalogDemo(baseURL: baseURL, print: { line in lines.withLock { $0.append(line) } }).run()
            }
            .value
            #expect(passed, "\(lines.withLock { $0 }.joined(separator: "\n"))")
            #expect(lines.withLock { $0 }.count == 9)
        }
    }

    @Test func aNotFoundIsPresentedAsNotFound() async throws {
        try await Self.withServer { baseURL in
            let client = CatalogClient(baseURL: baseURL, scheduler: DispatchQueue(label: "retries"))
            let result = await Task.detached { CatalogDemo.result(of: client.product(id: 7)) }.value
            guard case .failure(let error)? = result else {
                Issue.record("expected a failure, got \(String(describing: result))"); return
            }
            guard case .notFound(let failure) = error else { Issue.record("expected notFound, got \(error)"); return }
            #expect(failure.problem?.detail == "There is no product 7.")
            let presentation = ErrorHandlerChain().presentation(for: error)
            #expect(presentation.title == "Not Found")
            #expect(presentation.message == "What the app asked for could not be found.")
            #expect(presentation.options.map(\.title) == ["OK"])
        }
    }
}
