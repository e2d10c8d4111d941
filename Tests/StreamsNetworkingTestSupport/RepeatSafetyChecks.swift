#if canImport(Glibc)
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsNetworking
import StreamsResilience
import StreamsTesting
import Testing

/// What the resilience pipeline sends again, against a loopback server that records every
/// request: a request that is not safe to repeat is sent once whatever times out, and never
/// hedged; the server's `Retry-After` wins over its rate-limit reset.
enum RepeatSafetyChecks {
    static let all = [
        TransportCheck("aPostWhoseAttemptTimesOutUnderStandardHTTPIsSentOnce", postAttemptTimedOut),
        TransportCheck("aPostWithAnIdempotencyKeyWhoseAttemptTimesOutIsSentAgain", keyedPostAttemptTimedOut),
        TransportCheck("aHedgedPostIsSentOnce", hedgedPost),
        TransportCheck("retryAfterWinsOverTheRateLimitReset", retryAfterWins),
    ]

    /// `.standardHTTP` with short waits: a 200 ms attempt timeout and 50 ms between attempts.
    static var shortStandardHTTP: ResiliencePolicy {
        var policy = ResiliencePolicy.standardHTTP
        policy.attemptTimeout = .milliseconds(200)
        policy.retry?.backoff = .constant(.milliseconds(50))
        return policy
    }

    /// Sends `request` through `policy` (the pipeline is not told whether it is safe to repeat:
    /// the request says so itself) and returns its failure, or nil when it returned a response.
    static func failure(
        of request: URLRequest, on transport: TransportUnderTest, policy: ResiliencePolicy
    ) async -> ResilienceError<NetworkError>? {
        let publisher = transport.publisher(for: request).validateStatus()
            .resilient(policy, scheduler: DispatchQueue(label: "resilience"))
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

    /// Lets a request that would be sent again have the time to arrive.
    static func settle() async throws {
        try await Task.sleep(for: .milliseconds(300))
    }

    static func postAttemptTimedOut(_ transport: TransportUnderTest) async throws {
        // The server holds the POST longer than the attempt timeout: it may have acted on it.
        // The issue's one-second attempt timeout: time enough for the POST to arrive, even on a
        // loaded machine, before it is cut off.
        let server = try RecordingHTTPServer { _ in .hold }
        defer { server.stop() }
        var policy = shortStandardHTTP
        policy.attemptTimeout = .seconds(1)
        let error = await failure(of: TransportSuite.request("POST", server.url()), on: transport, policy: policy)
        try await settle()
        guard case .attemptTimedOut(let timeout) = error else {
            Issue.record("expected the attempt timeout, got \(String(describing: error))")
            return
        }
        #expect(timeout == AttemptTimeoutError(timeout: .seconds(1), isSafeToRepeat: false))
        #expect(error?.category == .nonRetryable)
        #expect(server.requests.count == 1)
    }

    static func keyedPostAttemptTimedOut(_ transport: TransportUnderTest) async throws {
        // The server holds the first copy past the attempt timeout and answers the next: the call
        // succeeds only if it was sent again. (On a loaded machine a later attempt may time out
        // too, before it reaches the server: the retry has several.)
        let arrived = Locked(0)
        let server = try RecordingHTTPServer { _ in
            arrived.withLock { count in
                count += 1
                return count
            } == 1 ? .hold : .status(200, body: "ok")
        }
        defer { server.stop() }
        let request = TransportSuite.request("POST", server.url()).addingIdempotencyKey("order-18")
        let error = await failure(of: request, on: transport, policy: shortStandardHTTP)
        #expect(error == nil, "\(String(describing: error))")
        let keys = server.requests.map { $0.headers["idempotency-key"] }
        #expect(keys.count >= 2)
        #expect(keys.allSatisfy { $0 == "\"order-18\"" })
    }

    static func hedgedPost(_ transport: TransportUnderTest) async throws {
        for (method, sent) in [("POST", 1), ("GET", 2)] {
            let server = try RecordingHTTPServer { _ in .hold }
            defer { server.stop() }
            var policy = shortStandardHTTP
            policy.retry = nil
            policy.attemptTimeout = .seconds(1)  // time for both copies of a GET to arrive
            policy.hedging = Hedging(maxAttempts: 2, delay: .milliseconds(50))
            _ = await failure(of: TransportSuite.request(method, server.url()), on: transport, policy: policy)
            try await settle()
            #expect(server.requests.count == sent, "\(method)")
        }
    }

    static func retryAfterWins(_ transport: TransportUnderTest) async throws {
        // The 429 asks for 1 s in Retry-After and 3 s in RateLimit-Reset: the retry waits 1 s.
        let arrivals = Locked<[ContinuousClock.Instant]>([])
        let server = try RecordingHTTPServer { _ in
            let first = arrivals.withLock { arrivals in
                arrivals.append(.now)
                return arrivals.count == 1
            }
            return first ? .status(429, ["Retry-After": "1", "RateLimit-Reset": "3"]) : .status(200, body: "ok")
        }
        defer { server.stop() }
        let request = TransportSuite.request("GET", server.url())
        let error = await failure(
            of: request, on: transport, policy: ResiliencePolicy(retry: .init(maxRetries: 1, backoff: .immediate)))
        #expect(error == nil, "\(String(describing: error))")
        let times = arrivals.withLock { $0 }
        try #require(times.count == 2)
        let wait = times[0].duration(to: times[1])
        #expect(wait >= .milliseconds(950) && wait < .milliseconds(2500), "waited \(wait)")
    }
}
#endif
