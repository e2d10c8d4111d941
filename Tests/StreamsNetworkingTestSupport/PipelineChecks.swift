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

/// The typed pipeline above the transport: metadata through validation and decoding, error
/// bodies and hints, and a cancelled request.
enum PipelineChecks {
    static let all = [
        TransportCheck("aSuccessKeepsItsStatusAndHeadersThroughValidationAndDecoding", metadata),
        TransportCheck("anErrorBodyAndItsHintReachTheError", errorBody),
        TransportCheck("aCancelledRequestDeliversNothingAndClosesItsConnection", cancelled),
    ]

    struct Feed: Decodable, Equatable {
        var items: [Int]
    }

    static func metadata(_ transport: TransportUnderTest) async throws {
        let server = try RecordingHTTPServer { _ in
            .status(200, ["ETag": "\"v7\"", "Link": "</items?page=2>; rel=\"next\""], body: #"{"items":[1,2]}"#)
        }
        defer { server.stop() }
        let pipeline: AnyPublisher<NetworkResponse<Feed>, NetworkError> = transport.make()
            .erasedPublisher(for: server.url("/items"))
            .validateResponse()
            .decode(type: Feed.self, decoder: JSONDecoder())
        let page = try await TransportSuite.outcome(of: pipeline).get()
        #expect(page.value.items == [1, 2])
        #expect(page.status == 200)
        #expect(page.header("etag") == "\"v7\"")
        #expect(page.header("Link") == "</items?page=2>; rel=\"next\"")
        #expect(page.request == SentRequest(method: "GET"))
    }

    static func errorBody(_ transport: TransportUnderTest) async throws {
        let server = try RecordingHTTPServer { request in
            request.target == "/busy"
                ? .status(503, ["Retry-After": "120"])
                : .status(
                    422, ["Content-Type": "application/problem+json"],
                    body: #"{"title":"Invalid","detail":"The name is taken.","errors":{"name":["is taken"]}}"#)
        }
        defer { server.stop() }
        let invalid = await TransportSuite.failure(of: transport.publisher(for: server.url("/users")).validateStatus())
        guard case .validation(let response) = invalid else {
            Issue.record("expected a validation error, got \(String(describing: invalid))")
            return
        }
        #expect(response.problem?.detail == "The name is taken.")
        #expect(response.problem?.fieldErrors.isEmpty == false)
        let busy = await TransportSuite.failure(of: transport.publisher(for: server.url("/busy")).validateStatus())
        #expect(busy?.status == 503)
        #expect(busy?.retryAfter == .seconds(120))
    }

    static func cancelled(_ transport: TransportUnderTest) async throws {
        let server = try RecordingHTTPServer { _ in .hold }
        defer { server.stop() }
        let events = Locked([String]())
        // The request's own timeout is far beyond the waits below, so that a starved test run
        // cannot see it time out before the cancel.
        let cancellable = transport.publisher(for: TransportSuite.request("GET", server.url(), timeout: 600))
            .sink(
                receiveCompletion: { completion in events.withLock { $0.append("\(completion)") } },
                receiveValue: { response in events.withLock { $0.append("value \(response.status)") } })
        // Waits (bounded, yielding the processor) until the server holds the request.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(20)
        while server.requests.isEmpty && clock.now < deadline { await Task.yield() }
        #expect(server.requests.count == 1)
        cancellable.cancel()
        // The transport lets the connection go: the server sees the client close it. The close
        // is queued on the session's own queues, which a busy test run can hold up for a while.
        let closeDeadline = clock.now + .seconds(90)
        while server.connectionsClosedByClient == 0 && clock.now < closeDeadline { await Task.yield() }
        #expect(server.connectionsClosedByClient == 1)
        #expect(events.withLock { $0 } == [])
    }
}
#endif
