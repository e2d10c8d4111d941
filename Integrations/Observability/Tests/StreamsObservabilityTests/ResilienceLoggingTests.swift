import InMemoryLogging
import Logging
import Streams
import StreamsObservability
import StreamsResilience
import Testing

@Suite("ResilienceLogging")
struct ResilienceLoggingTests {
    let handler = InMemoryLogHandler()

    func logger(_ level: Logger.Level) -> Logger {
        var logger = Logger(label: "resilience", factory: { _ in handler })
        logger.logLevel = level
        return logger
    }

    @Test func oneLinePerDecisionAtItsLevel() async throws {
        let logging = ResilienceLogging(pipeline: "payments", logger: logger(.info))
        let pipeline = ResiliencePipeline(
            ResiliencePolicy(
                retry: .init(maxRetries: 2, backoff: .immediate),
                circuitBreaker: .init(failureRatio: 1, window: .count(10), minimumThroughput: 2, breakDuration: .seconds(60))),
            events: logging.events)
        let failing = FlakyOperation(failing: .max)
        await #expect(throws: CircuitOpenError.self) {
            try await pipeline.execute { _ in try failing() }
        }

        // Attempt 1 fails: retry; attempt 2 fails and opens the circuit: retry; attempt 3 is refused.
        #expect(
            handler.entries.map { "\($0.level) \($0.message)" } == [
                "notice retrying", "warning circuit open", "notice retrying", "notice call refused: circuit open",
                "warning gave up retrying",
            ])
        #expect(handler.entries.allSatisfy { $0.metadata["pipeline.name"] == "payments" })
        #expect(
            handler.entries.map { $0.metadata["event.name"] } == [
                "retry_scheduled", "circuit_opened", "retry_scheduled", "circuit_rejected", "retry_gave_up",
            ])
        let retry = try #require(handler.entries.first)
        #expect(retry.metadata["attempt.number"] == "1")
        #expect(retry.metadata["retry.delay"] == "0.0")
        #expect(retry.metadata["error.type"] == "\(String(reflecting: Outage.self))")
        #expect(retry.metadata["error.message"] == "outage")
        let refusal = handler.entries[3]
        #expect(refusal.metadata["circuit.state"] == "open")
        #expect(refusal.metadata["retry_after"] != nil)
        let gaveUp = handler.entries[4]
        #expect(gaveUp.metadata["retry.reason"] == "exhausted")
        #expect(gaveUp.metadata["attempt.count"] == "3")
    }

    @Test func attemptsAreLoggedAtDebugAndTrace() async throws {
        let pipeline = ResiliencePipeline(
            .retrying(1, backoff: .immediate), events: ResilienceLogging(pipeline: "search", logger: logger(.trace)).events)
        let flaky = FlakyOperation(failing: 1)
        _ = try await pipeline.execute { _ in try flaky() }

        #expect(
            handler.entries.map { "\($0.level) \($0.message)" } == [
                "trace attempt started", "debug attempt failed", "notice retrying", "trace attempt started",
                "debug attempt succeeded",
            ])
        #expect(handler.entries.map { $0.metadata["attempt.number"] } == ["1", "1", "1", "2", "2"])
        #expect(handler.entries[1].metadata["attempt.duration"] != nil)
        #expect(handler.entries[4].metadata["error.type"] == nil)
    }

    @Test func anErrorTheRetryDoesNotHandleGivesUpAtDebug() async throws {
        struct Rejected: Error {}
        let pipeline = ResiliencePipeline(
            .retrying(3, backoff: .immediate), events: ResilienceLogging(pipeline: "search", logger: logger(.debug)).events)
        await #expect(throws: Rejected.self) {
            try await pipeline.execute { _ in throw Rejected() }
        }

        let gaveUp = try #require(handler.entries.last)
        #expect("\(gaveUp.level) \(gaveUp.message)" == "debug gave up retrying")
        #expect(gaveUp.metadata["retry.reason"] == "not_retryable")
        #expect(handler.entries.allSatisfy { $0.level < .info })
    }

    @Test func secretsNeverReachTheLog() async throws {
        let pipeline = ResiliencePipeline(
            .retrying(1, backoff: .immediate), events: ResilienceLogging(pipeline: "search", logger: logger(.trace)).events)
        await #expect(throws: LeakyError.self) {
            try await pipeline.execute { _ in throw LeakyError() }
        }

        let written = handler.entries.map { "\($0.message) \($0.metadata)" }
        #expect(written.count == 6)  // started, failed, retrying, started, failed, gave up
        #expect(!written.contains { $0.contains("SECRET") })
        #expect(handler.entries[2].metadata["error.message"] == "\(LeakyError().redactedDescription)")
        #expect(handler.entries[2].metadata["error.type"] == "\(String(reflecting: LeakyError.self))")
    }

    @Test func eachLineNamesTheRequestAndTheAttemptOfItsCall() async throws {
        let logging = ResilienceLogging(pipeline: "payments", logger: logger(.trace))
        let pipeline = ResiliencePipeline(.retrying(1, backoff: .immediate), name: "charges", events: logging.events)
        let flaky = FlakyOperation(failing: 1)
        let post = ResilienceRequestIdentity(method: "POST", origin: "https://pay.example.com:443/charges?card=4242")
        _ = try await pipeline.execute(request: post) { _ in try flaky() }

        #expect(handler.entries.allSatisfy { $0.metadata["http.request.method"] == "POST" })
        #expect(handler.entries.allSatisfy { $0.metadata["request.origin"] == "https://pay.example.com:443" })
        #expect(handler.entries.allSatisfy { $0.metadata["operation.name"] == "charges" })
        #expect(handler.entries.map { $0.metadata["attempt.number"] } == ["1", "1", "1", "2", "2"])
    }

    @Test func aFallbackIsLoggedWithTheErrorItReplaced() async throws {
        let logging = ResilienceLogging(pipeline: "search", logger: logger(.notice))
        let pipeline = ResiliencePipeline(.retrying(0, backoff: .immediate), events: logging.events)
        let value = try await pipeline.execute(clock: ContinuousClock()) { _ in
            try FlakyOperation(failing: 1)()
        } fallback: { _ in
            7
        }
        #expect(value == 7)
        let fallback = try #require(handler.entries.last)
        #expect("\(fallback.level) \(fallback.message)" == "notice falling back")
        #expect(fallback.metadata["event.name"] == "fallback_used")
        #expect(fallback.metadata["error.type"] == "\(String(reflecting: Outage.self))")
    }
}
