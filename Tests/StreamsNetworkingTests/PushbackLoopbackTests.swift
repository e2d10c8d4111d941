// One server's pushback and quota, shared by every call of a pipeline, over loopback.
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

@Suite("Server pushback and quota pacing, over loopback", .serialized, .timeLimit(.minutes(1)))
struct PushbackLoopbackTests {
    /// The first value of `publisher`, or its failure.
    static func first<P: Publisher>(_ publisher: P) async throws -> P.Output {
        for try await value in publisher.values { return value }
        throw CancellationError()
    }

    /// Seconds on the monotonic clock, which the server and the test read alike.
    static func uptime() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    @Test func aRefusalWithRetryAfterHoldsBackTheTenCallsOfTheHostUntilItsInstant() async throws {
        let arrivals = Locked<[Double]>([])
        let refusedAt = Locked<Double?>(nil)
        let server = try LoopbackHTTPServer { _ in
            let now = Self.uptime()
            let first = arrivals.withLock { arrivals in
                arrivals.append(now)
                return arrivals.count == 1
            }
            guard first else { return .ok() }
            refusedAt.withLock { $0 = Self.uptime() }
            return .init(status: 429, headers: ["Retry-After": "2"])
        }
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        let url = server.url("/items")
        let registry = ResilienceRegistry(policy: .standardHTTP)
        let pipeline = registry.pipeline(forHostOf: url)
        let viaPublisher: @Sendable () async throws -> Data = {
            try await Self.first(
                session.requestPublisher(for: url).validateStatus().resilient(pipeline, scheduler: DispatchQueue.global()))
        }
        let viaAsync: @Sendable () async throws -> Data = {
            try await pipeline.execute { _ in try await Self.first(session.requestPublisher(for: url).validateStatus()) }
        }

        // The first call is refused; the other nine start while the pause it caused runs (on a
        // machine so loaded that the pause is over before this loop sees it, they start after
        // the first call is done, and must still not have been sent during the pause).
        let firstDone = Locked(false)
        let firstCall = Task {
            defer { firstDone.withLock { $0 = true } }
            return try await viaPublisher()
        }
        func paused() -> Bool {
            refusedAt.withLock { $0 } != nil
                && pipeline.pushbackLimiter.map { $0.wait(at: DispatchQueue.main.now) > .zero } == true
        }
        while !paused(), !firstDone.withLock({ $0 }) {
            try await Task.sleep(for: .milliseconds(5))
        }
        let others = (1..<10).map { index in Task { try await (index.isMultiple(of: 2) ? viaPublisher : viaAsync)() } }
        _ = try await firstCall.value
        for other in others { _ = try await other.value }

        let refused = try #require(refusedAt.withLock { $0 })
        let times = arrivals.withLock { $0 }
        #expect(times.count == 11)  // the refused call, its retry, and the nine others: each sent once
        // Nothing reached the server during the two seconds it asked for.
        #expect(times.dropFirst().allSatisfy { $0 >= refused + 2 })
    }

    @Test func pacingKeepsTwentyRequestsWithinAnAnnouncedQuotaWithoutA429() async throws {
        let start = Self.uptime()
        let windows = Locked<[Int: Int]>([:])
        let refusals = Locked(0)
        let server = try LoopbackHTTPServer { _ in
            // 5 calls in each window of one second from the server's start.
            let elapsed = Self.uptime() - start
            let window = Int(elapsed)
            let count = windows.withLock { windows in
                windows[window, default: 0] += 1
                return windows[window]!
            }
            let reset = "\(Int((Double(window + 1) - elapsed).rounded(.up)))"
            guard count <= 5 else {
                refusals.withLock { $0 += 1 }
                return .init(
                    status: 429,
                    headers: [
                        "Retry-After": reset, "RateLimit-Limit": "5", "RateLimit-Remaining": "0",
                        "RateLimit-Reset": reset,
                    ])
            }
            return .init(
                status: 200, headers: ["RateLimit-Limit": "5", "RateLimit-Remaining": "\(5 - count)", "RateLimit-Reset": reset],
                body: "{}")
        }
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        let url = server.url("/search")
        let pipeline = ResiliencePipeline(.standardHTTP)

        // Four workers, five requests each, as fast as the pipeline lets them.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for _ in 0..<5 {
                        if worker.isMultiple(of: 2) {
                            // A publisher that drops the headers reports the quota before.
                            _ = try await Self.first(
                                session.requestPublisher(for: url)
                                    .reportsQuota(to: pipeline, scheduler: DispatchQueue.global())
                                    .validateStatus()
                                    .resilient(pipeline, scheduler: DispatchQueue.global()))
                        } else {
                            // An async call returning the response is read by the pipeline itself.
                            _ = try await pipeline.execute { _ in
                                try await Self.first(session.requestPublisher(for: url).validateResponse())
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(refusals.withLock { $0 } == 0)
        #expect(server.requests.count == 20)
        #expect(windows.withLock { $0.values.allSatisfy { $0 <= 5 } })
    }
}
#endif
