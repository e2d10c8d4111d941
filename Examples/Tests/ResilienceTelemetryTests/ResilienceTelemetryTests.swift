import InMemoryLogging
import Logging
import MetricsTestKit
import ResilienceTelemetry
import Streams
import StreamsResilience
import StreamsTesting
import Testing

@Suite("ResilienceTelemetry")
struct ResilienceTelemetryTests {
    /// Its description holds no secret, so it opts in to being logged as it describes itself.
    struct Outage: CategorizedError, RedactingError, CustomStringConvertible {
        var category: ErrorCategory { .retryable }
        var description: String { "outage" }
    }

    @Test func eventsAreLoggedAndCountedPerDependency() throws {
        let scheduler = TestScheduler()
        let handler = InMemoryLogHandler()
        let logger = Logger(label: "resilience", factory: { _ in handler })
        let metrics = TestMetrics()
        let registry = ResilienceRegistry(
            policy: ResiliencePolicy(
                retry: .init(maxRetries: 2, backoff: .constant(.seconds(1))),
                circuitBreaker: .init(failureRatio: 1, window: .count(10), minimumThroughput: 2, breakDuration: .seconds(5)))
        ) { host in
            ResilienceTelemetry.events(for: host, logger: logger, metrics: metrics)
        }
        let failing = Fail<Int, Outage>(error: Outage())
        let subscriber = TestSubscriber<Int, ResilienceError<Outage>>()
        failing.resilient(registry.pipeline(for: "payments"), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(60))

        // 0 s: fails, retry 1 in 1 s; 1 s: fails, the circuit opens, retry 2 in 1 s; 2 s: refused.
        let counted = { (event: ResilienceTelemetry.EventKind) in
            metrics.counterTotal(
                label: ResilienceTelemetry.eventsCounter, dimensions: [("dependency", "payments"), ("event", event.rawValue)])
        }
        #expect(counted(.retryScheduled) == 2)
        #expect(counted(.circuitOpened) == 1)
        #expect(counted(.circuitRejected) == 1)
        #expect(counted(.circuitClosed) == 0)
        let delays = try metrics.expectTimer(ResilienceTelemetry.retryDelayTimer, [("dependency", "payments")])
        #expect(delays.values == [1_000_000_000, 1_000_000_000])

        let messages = handler.entries.map { "\($0.level) \($0.message)" }
        #expect(
            messages == [
                "notice retrying", "warning circuit open", "notice retrying", "warning call refused: circuit open",
                "warning gave up retrying",
            ])
        #expect(counted(.retryGaveUp) == 1)
        #expect(handler.entries.allSatisfy { $0.metadata["dependency"] == "payments" })
        #expect(handler.entries.first?.metadata["error"] == "upstream(outage)")
    }
}
