import InMemoryLogging
import InMemoryTracing
import Logging
import MetricsTestKit
import Streams
import StreamsObservability
import StreamsResilience
import StreamsTesting
import Testing
import Tracing

@Suite("ResilienceObservability")
struct ResilienceObservabilityTests {
    let handler = InMemoryLogHandler()
    let metrics = TestMetrics()
    let tracer = InMemoryTracer()

    func registry(_ policy: ResiliencePolicy) -> ResilienceRegistry {
        let logger = Logger(label: "resilience", factory: { [handler] _ in handler })
        let metrics = metrics
        return ResilienceRegistry(policy: policy) { key in
            ResilienceObservability.events(for: key, logger: logger, metrics: metrics)
        }
    }

    @Test func aRegistryKeyIsCountedLoggedAndTraced() async throws {
        let registry = registry(.retrying(1, backoff: .immediate))
        let flaky = FlakyOperation(failing: 1)
        _ = try await registry.pipeline(for: "payments").execute(tracing: "POST /charges", tracer: tracer) { _ in
            try flaky()
        }

        let retries = metrics.counterTotal(
            label: ResilienceMetrics.eventsCounter,
            dimensions: [
                ("pipeline.name", "payments"), ("event.name", "retry_scheduled"), ("event.severity", "notice"),
                ("error.type", String(reflecting: Outage.self)),
            ])
        #expect(retries == 1)
        #expect(handler.entries.map { "\($0.message)" } == ["retrying"])
        #expect(handler.entries.first?.metadata["pipeline.name"] == "payments")
        let call = try #require(tracer.finishedSpans.first { $0.operationName == "POST /charges" })
        #expect(call.events.map(\.name) == ["retry_scheduled"])
        #expect(call.attributes.get("pipeline.name") == .string("payments"))
    }

    /// The guide's example, with the tracer bound to the task rather than bootstrapped.
    @Test func theTasksTracerTracesByDefault() async throws {
        let logger = Logger(label: "resilience", factory: { [handler] _ in handler })
        let registry = ResilienceRegistry(policy: .retrying(1, backoff: .immediate)) { host in
            ResilienceObservability.events(for: host, logger: logger)
        }
        let flaky = FlakyOperation(failing: 1)
        let value = try await withTracer(tracer) {
            try await registry.pipeline(for: "users.internal").execute(tracing: "GET /users/{id}") { _ in try flaky() }
        }

        #expect(value == 2)
        let call = try #require(tracer.finishedSpans.first { $0.operationName == "GET /users/{id}" })
        #expect(call.events.map(\.name) == ["retry_scheduled"])
        #expect(tracer.finishedSpans.filter { $0.parentSpanID == call.spanID }.count == 2)
        #expect(handler.entries.map { $0.metadata["pipeline.name"] } == ["users.internal"])
    }

    @Test func publishersAreCountedAndLogged() {
        let scheduler = TestScheduler()
        let registry = registry(.retrying(2, backoff: .constant(.seconds(1))))
        let subscriber = TestSubscriber<Int, ResilienceError<Outage>>()
        Fail<Int, Outage>(error: Outage()).resilient(registry.pipeline(for: "search"), scheduler: scheduler)
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(10))

        let retries = metrics.counterTotal(
            label: ResilienceMetrics.eventsCounter,
            dimensions: [
                ("pipeline.name", "search"), ("event.name", "retry_scheduled"), ("event.severity", "notice"),
                ("error.type", String(reflecting: Outage.self)),
            ])
        #expect(retries == 2)
        let delays = try? metrics.expectTimer(ResilienceMetrics.retryDelay, [("pipeline.name", "search")])
        #expect(delays?.values == [1_000_000_000, 1_000_000_000])
        #expect(handler.entries.map { "\($0.message)" } == ["retrying", "retrying", "gave up retrying"])
        #expect(tracer.finishedSpans.isEmpty)
    }

    @Test func leavingEverythingOutObservesNothing() {
        let events = ResilienceObservability.events(for: "search", logger: nil, metrics: nil, tracing: false)
        #expect(!events.isObserved)
    }
}
