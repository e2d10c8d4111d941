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

/// Every transport failure before a complete response, produced by a real loopback server, as
/// the platform's URLSession reports it: the code, the category `retry` acts on, and the
/// sentence the user sees.
@Suite("Transport failures against loopback servers")
struct TransportFailureTests {
    /// The failure of one request to `url` (nil if it succeeded), waited for without blocking a
    /// test thread. Every request has a deadline, so this always returns.
    static func failure(of url: URL, timeout: TimeInterval = 30) async -> NetworkError? {
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
        return await failure(of: URLSession(configuration: .ephemeral).requestPublisher(for: request))
    }

    static func failure<P: Publisher>(of publisher: P) async -> NetworkError? where P.Failure == NetworkError {
        let holder = Locked<AnyCancellable?>(nil)
        return await withCheckedContinuation { continuation in
            let cancellable = publisher.sink(
                receiveCompletion: { completion in
                    if case .failure(let error) = completion {
                        continuation.resume(returning: error)
                    } else {
                        continuation.resume(returning: nil)
                    }
                },
                receiveValue: { _ in })
            holder.withLock { $0 = cancellable }
        }
    }

    /// The URL error of a transport failure, or a recorded issue.
    static func urlError(_ error: NetworkError?, sourceLocation: SourceLocation = #_sourceLocation) -> URLError? {
        guard case .transport(let urlError, _) = error else {
            Issue.record("expected a transport error, got \(String(describing: error))", sourceLocation: sourceLocation)
            return nil
        }
        return urlError
    }

    @Test func aServerThatClosesWithoutReplyingIsRetryable() async throws {
        let server = try MisbehavingServer(.closeWithoutReply)
        defer { server.stop() }
        let error = await Self.failure(of: server.url())
        let urlError = try #require(Self.urlError(error))
        #if canImport(FoundationNetworking)
        #expect(urlError.code == .badServerResponse)  // -1011 "Empty reply from server"
        #endif
        #expect(error?.category == .retryable)
        #expect(error?.errorDescription == "The server could not be reached. Check your connection and try again.")
    }

    @Test func aConnectionClosedMidBodyIsRetryable() async throws {
        let server = try MisbehavingServer(.closeMidBody)
        defer { server.stop() }
        let error = await Self.failure(of: server.url())
        let urlError = try #require(Self.urlError(error))
        #if canImport(FoundationNetworking)
        #expect(urlError.code == .unknown)  // -1 "transfer closed with N bytes remaining to read"
        #endif
        #expect(error?.category == .retryable)
    }

    @Test func aServerThatNeverAnswersTimesOutAndIsRetryable() async throws {
        let server = try MisbehavingServer(.neverAnswer)
        defer { server.stop() }
        let error = await Self.failure(of: server.url(), timeout: 1)
        let urlError = try #require(Self.urlError(error))
        #expect(urlError.code == .timedOut)
        #expect(error?.category == .retryable)
        #expect(error?.errorDescription == "The server took too long to answer. Please try again.")
    }

    @Test func aRefusedConnectionIsRetryable() async throws {
        let port = try MisbehavingServer.closedPort()
        let error = await Self.failure(of: URL(string: "http://127.0.0.1:\(port)/")!)
        let urlError = try #require(Self.urlError(error))
        #expect(urlError.code == .cannotConnectToHost)
        #expect(error?.category == .retryable)
    }

    @Test func aResetConnectionIsRetryable() async throws {
        let server = try MisbehavingServer(.reset)
        defer { server.stop() }
        let error = await Self.failure(of: server.url())
        let urlError = try #require(Self.urlError(error))
        #expect(urlError.code == .networkConnectionLost)
        #expect(error?.category == .retryable)
    }

    @Test func aFailedTLSHandshakeIsNotRetryable() async throws {
        let server = try MisbehavingServer(.plainHTTP)
        defer { server.stop() }
        let error = await Self.failure(of: server.url("https"))
        let urlError = try #require(Self.urlError(error))
        #if canImport(FoundationNetworking)
        #expect(urlError.code == .unknown)  // -1 "OpenSSL/3...: wrong version number"
        #else
        #expect(urlError.code == .secureConnectionFailed)
        #endif
        #expect(error?.category == .nonRetryable)
        #expect(error?.errorDescription == "A secure connection to the server could not be made.")
    }

    @Test func theDefaultPredicateRetriesATransportFailure() async throws {
        let server = try MisbehavingServer(.closeWithoutReply)
        defer { server.stop() }
        let retried = URLSession(configuration: .ephemeral).requestPublisher(for: server.url())
            .retry(2, backoff: .immediate, scheduler: DispatchQueue(label: "retries"))
        let error = await Self.failure(of: retried)
        _ = try #require(Self.urlError(error))
        #expect(server.connections == 3)
    }

    @Test(arguments: [
        "http://127.0.0.1:99999/x", "http://", "http:///x", "ftp://127.0.0.1/x", "file:///etc/hosts", "mailto:a@b.c",
        "http://127.0.0.1:0/x",
    ])
    func aMalformedURLIsAnInvalidRequestBeforeAnyIO(_ url: String) throws {
        let session = URLSession(configuration: .ephemeral)
        let failures = Locked<[NetworkError]>([])
        for publisher in [session.requestPublisher(for: url), session.requestPublisher(for: try #require(URL(string: url)))] {
            // A failure before any I/O arrives during the subscription itself.
            let cancellable = publisher.sink(
                receiveCompletion: { if case .failure(let error) = $0 { failures.withLock { $0.append(error) } } },
                receiveValue: { _ in })
            cancellable.cancel()
        }
        let seen = failures.withLock { $0 }
        #expect(seen.count == 2)
        for error in seen {
            guard case .invalidRequest = error else { Issue.record("\(url): expected invalidRequest, got \(error)"); continue }
            #expect(error.category == .nonRetryable)
        }
    }
}
#endif
