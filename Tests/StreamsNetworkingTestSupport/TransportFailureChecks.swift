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
import StreamsResilience

/// Every transport failure before a complete response, produced by a real loopback server: the
/// code, the category `retry` acts on, and the sentence the user sees.
enum TransportFailureChecks {
    static let all = [
        TransportCheck("aServerThatClosesWithoutReplyingIsRetryable", closeWithoutReply),
        TransportCheck("aConnectionClosedMidBodyIsRetryable", closeMidBody),
        TransportCheck("aServerThatNeverAnswersTimesOutAndIsRetryable", neverAnswer),
        TransportCheck("aRefusedConnectionIsRetryable", refused),
        TransportCheck("aResetConnectionIsRetryable", reset),
        TransportCheck("aFailedTLSHandshakeIsNotRetryable", tlsHandshake),
        TransportCheck("theDefaultPredicateRetriesATransportFailure", defaultPredicate),
        TransportCheck("aMalformedURLIsAnInvalidRequestBeforeAnyIO", malformedURL),
    ]

    /// The failure of one GET of `url` with `timeout` (nil if it succeeded).
    static func failure(of url: URL, on transport: TransportUnderTest, timeout: TimeInterval = 30) async -> NetworkError? {
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
        return await TransportSuite.failure(of: transport.publisher(for: request))
    }

    /// The URL error of a transport failure, or a recorded issue.
    static func transportError(_ error: NetworkError?, sourceLocation: SourceLocation = #_sourceLocation) -> URLError? {
        guard case .transport(let urlError, _) = error else {
            Issue.record("expected a transport error, got \(String(describing: error))", sourceLocation: sourceLocation)
            return nil
        }
        return urlError
    }

    static func closeWithoutReply(_ transport: TransportUnderTest) async throws {
        let server = try MisbehavingServer(.closeWithoutReply)
        defer { server.stop() }
        let error = await failure(of: server.url(), on: transport)
        let urlError = try #require(transportError(error))
        if let code = transport.codes[.closeWithoutReply] { #expect(urlError.code == code) }
        #expect(error?.category == .retryable)
        #expect(error?.errorDescription == "The server could not be reached. Check your connection and try again.")
        #expect(error?.request == SentRequest(method: "GET"))
    }

    static func closeMidBody(_ transport: TransportUnderTest) async throws {
        let server = try MisbehavingServer(.closeMidBody)
        defer { server.stop() }
        let error = await failure(of: server.url(), on: transport)
        let urlError = try #require(transportError(error))
        if let code = transport.codes[.closeMidBody] { #expect(urlError.code == code) }
        #expect(error?.category == .retryable)
    }

    static func neverAnswer(_ transport: TransportUnderTest) async throws {
        let server = try MisbehavingServer(.neverAnswer)
        defer { server.stop() }
        let error = await failure(of: server.url(), on: transport, timeout: 1)
        let urlError = try #require(transportError(error))
        #expect(urlError.code == .timedOut)
        #expect(error?.category == .retryable)
        #expect(error?.errorDescription == "The server took too long to answer. Please try again.")
    }

    static func refused(_ transport: TransportUnderTest) async throws {
        let port = try MisbehavingServer.closedPort()
        let error = await failure(of: try #require(URL(string: "http://127.0.0.1:\(port)/")), on: transport)
        let urlError = try #require(transportError(error))
        #expect(urlError.code == .cannotConnectToHost)
        #expect(error?.category == .retryable)
    }

    static func reset(_ transport: TransportUnderTest) async throws {
        let server = try MisbehavingServer(.reset)
        defer { server.stop() }
        let error = await failure(of: server.url(), on: transport)
        let urlError = try #require(transportError(error))
        #expect(urlError.code == .networkConnectionLost)
        #expect(error?.category == .retryable)
    }

    static func tlsHandshake(_ transport: TransportUnderTest) async throws {
        let server = try MisbehavingServer(.plainHTTP)
        defer { server.stop() }
        let error = await failure(of: server.url("https"), on: transport)
        let urlError = try #require(transportError(error))
        if let code = transport.codes[.tlsHandshake] { #expect(urlError.code == code) }
        #expect(error?.category == .nonRetryable)
        #expect(error?.errorDescription == "A secure connection to the server could not be made.")
    }

    static func defaultPredicate(_ transport: TransportUnderTest) async throws {
        let server = try MisbehavingServer(.closeWithoutReply)
        defer { server.stop() }
        let retried = transport.publisher(for: server.url())
            .retry(2, backoff: .immediate, scheduler: DispatchQueue(label: "retries"))
        let error = await TransportSuite.failure(of: retried)
        _ = try #require(transportError(error))
        #expect(server.connections == 3)
    }

    static func malformedURL(_ transport: TransportUnderTest) async throws {
        let urls = [
            "http://127.0.0.1:99999/x", "http://", "http:///x", "ftp://127.0.0.1/x", "file:///etc/hosts", "mailto:a@b.c",
            "http://127.0.0.1:0/x",
        ]
        let made = transport.make()
        for url in urls {
            let failures = Locked<[NetworkError]>([])
            for publisher in [made.erasedPublisher(forString: url), made.erasedPublisher(for: try #require(URL(string: url)))] {
                // A failure before any I/O arrives during the subscription itself.
                let cancellable = publisher.sink(
                    receiveCompletion: { if case .failure(let error) = $0 { failures.withLock { $0.append(error) } } },
                    receiveValue: { _ in })
                cancellable.cancel()
            }
            let seen = failures.withLock { $0 }
            #expect(seen.count == 2, "\(url)")
            for error in seen {
                guard case .invalidRequest = error else {
                    Issue.record("\(url): expected invalidRequest, got \(error)")
                    continue
                }
                #expect(error.category == .nonRetryable)
            }
        }
    }
}
#endif
