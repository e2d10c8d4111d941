// The middleware behind a client built as Swift OpenAPI Generator builds one (the stand-in in
// Support/Client.swift), so that what the caller sees is what a generated client gives: the
// documented case for a status the retry gave up on, and the runtime's ClientError around
// what the stages refuse.
import Foundation
import OpenAPIRuntime
import StreamsOpenAPI
import StreamsResilience
import Testing

@Suite("ResilienceMiddleware behind a generated client")
struct GeneratedClientTests {
    /// The example of the "OpenAPI clients" section of Docs/Networking.md, as written there.
    @Test func theGuidesExampleCompilesAndRuns() async throws {
        let registry = ResilienceRegistry(policy: .standardHTTP)
        let client = Client(
            serverURL: try Servers.Server1.url(),
            transport: URLSessionTransport(),
            middlewares: [ResilienceMiddleware(registry: registry)])

        var shown: [String] = []
        func show(_ text: String) { shown.append(text) }
        do {
            switch try await client.getGreeting() {
            case .ok(let ok): show(try ok.body.json.message)
            case .serviceUnavailable: show("The service is busy. Please try again later.")
            case .undocumented(let status, _): show("Unexpected status \(status)")
            }
        } catch let error as ClientError where error.underlyingError is CircuitOpenError {
            show("The service is busy. Please try again later.")  // no request was sent
        }
        #expect(shown == ["response 1"])
    }

    @Test func aStatusTheRetryGaveUpOnReachesItsDocumentedCase() async throws {
        let next = ScriptedNext([.status(503), .status(503), .status(503)])
        let middleware = ResilienceMiddleware(
            registry: ResilienceRegistry(policy: .retrying(2, backoff: .immediate)), clock: RecordingClock())
        let client = Client(serverURL: try Servers.Server1.url(), transport: URLSessionTransport(next), middlewares: [middleware])
        guard case .serviceUnavailable = try await client.getGreeting() else {
            Issue.record("expected the documented 503")
            return
        }
        #expect(next.calls == 3)
    }

    @Test func anOpenCircuitReachesTheCallerInsideClientError() async throws {
        let next = ScriptedNext([.status(503), .status(503)])
        let middleware = ResilienceMiddleware(
            registry: ResilienceRegistry(policy: ResilienceMiddlewareTests.breaking), clock: RecordingClock())
        let client = Client(serverURL: try Servers.Server1.url(), transport: URLSessionTransport(next), middlewares: [middleware])
        _ = try await client.getGreeting()
        let error = await #expect(throws: ClientError.self) { try await client.getGreeting() }
        #expect(error?.underlyingError is CircuitOpenError)
        #expect(error?.operationID == "getGreeting")
        #expect(error?.causeDescription.contains("ResilienceMiddleware") == true)
        #expect(next.calls == 2)
    }

    @Test func aTransportErrorKeepsTheRuntimesWrapping() async throws {
        let next = ScriptedNext([.fail(URLError(.networkConnectionLost)), .fail(URLError(.badURL))])
        let middleware = ResilienceMiddleware(
            registry: ResilienceRegistry(policy: .retrying(2, backoff: .immediate)), clock: RecordingClock())
        let client = Client(serverURL: try Servers.Server1.url(), transport: URLSessionTransport(next), middlewares: [middleware])
        let error = await #expect(throws: ClientError.self) { try await client.getGreeting() }
        #expect(error?.underlyingError as? URLError == URLError(.badURL))
        #expect(error?.causeDescription == "Transport threw an error.")
        #expect(next.calls == 2)
    }
}
