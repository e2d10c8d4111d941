// A publisher and async calls to one loopback server, guarded by one pipeline.
#if canImport(Glibc)
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsNetworking
import StreamsNetworkingTestSupport
import StreamsResilience
import StreamsTesting
import Testing

@Suite("One breaker for publishers and async calls, over loopback", .timeLimit(.minutes(1)))
struct SharedBreakerLoopbackTests {
    /// The first value of `publisher`, or its failure.
    static func first<P: Publisher>(_ publisher: P) async throws -> P.Output {
        for try await value in publisher.values { return value }
        throw CancellationError()
    }

    @Test func aPublisherAndAsyncCallsShareOneBreakerThroughAnOutage() async throws {
        let down = Locked(true)
        let server = try LoopbackHTTPServer { _ in down.withLock { $0 } ? .init(status: 503) : .ok() }
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        let url = server.url("/health")
        let pipeline = ResiliencePipeline(
            ResiliencePolicy(
                circuitBreaker: .init(
                    failureRatio: 0.5, window: .count(10), minimumThroughput: 2, breakDuration: .milliseconds(500))))
        let guarded = session.requestPublisher(for: url).validateStatus()
            .resilient(pipeline, scheduler: DispatchQueue.global())
        let call: @Sendable () async throws -> String = {
            try await pipeline.execute { _ in
                String(decoding: try await Self.first(session.requestPublisher(for: url).validateStatus()), as: UTF8.self)
            }
        }

        // The outage: one failure through each face opens the circuit.
        await #expect(throws: ResilienceError<NetworkError>.self) { try await Self.first(guarded) }
        await #expect { try await call() } throws: { ($0 as? NetworkError)?.status == 503 }
        #expect(pipeline.circuitBreaker?.currentState == .open)

        // Open: both faces fail fast, and the server hears nothing more.
        await #expect { try await call() } throws: { ($0 as? CircuitOpenError)?.retryAfter ?? .zero > .zero }
        await #expect {
            try await Self.first(guarded)
        } throws: { error in
            if case .circuitOpen = error as? ResilienceError<NetworkError> { true } else { false }
        }
        #expect(server.requests.count == 2)

        // The server recovers; after the break an async call is the probe that closes the circuit,
        // and the publisher goes through.
        down.withLock { $0 = false }
        try await Task.sleep(for: .milliseconds(600))
        #expect(try await call() == #"{"ok":true}"#)
        #expect(pipeline.circuitBreaker?.currentState == .closed)
        #expect(try await Self.first(guarded) == Data(#"{"ok":true}"#.utf8))
        #expect(server.requests.count == 4)
    }
}
#endif
