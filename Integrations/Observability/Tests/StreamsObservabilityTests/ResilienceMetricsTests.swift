import MetricsTestKit
import Streams
import StreamsObservability
import StreamsResilience
import Testing

@Suite("ResilienceMetrics")
struct ResilienceMetricsTests {
    let metrics = TestMetrics()
    let outage = String(reflecting: Outage.self)

    /// A failing attempt, a retry, a failing attempt that opens the circuit, a retry refused by
    /// the open circuit, and the give-up: no wait anywhere.
    func runIntoAnOpenCircuit(events: ResilienceEvents) async throws {
        let pipeline = ResiliencePipeline(
            ResiliencePolicy(
                retry: .init(maxRetries: 2, backoff: .immediate),
                circuitBreaker: .init(failureRatio: 1, window: .count(10), minimumThroughput: 2, breakDuration: .seconds(60))),
            events: events)
        let failing = FlakyOperation(failing: .max)
        await #expect(throws: CircuitOpenError.self) {
            try await pipeline.execute { _ in try failing() }
        }
        #expect(failing.callCount == 2)
    }

    func counted(_ event: ResilienceEventName, _ severity: String, error: String? = nil) -> Int64 {
        var dimensions = [("pipeline.name", "payments"), ("event.name", event.rawValue), ("event.severity", severity)]
        if let error { dimensions.append(("error.type", error)) }
        return metrics.counterTotal(label: ResilienceMetrics.eventsCounter, dimensions: dimensions)
    }

    @Test func retriesAreCountedAndAttemptsTimed() async throws {
        let pipeline = ResiliencePipeline(
            .retrying(2, backoff: .immediate), events: ResilienceMetrics(pipeline: "payments", factory: metrics).events)
        let flaky = FlakyOperation(failing: 2)
        let value = try await pipeline.execute { _ in try flaky() }

        #expect(value == 3)
        #expect(counted(.retryScheduled, "notice", error: outage) == 2)
        #expect(metrics.counterTotal(label: ResilienceMetrics.eventsCounter) == 2)
        let delays = try metrics.expectTimer(ResilienceMetrics.retryDelay, [("pipeline.name", "payments")])
        #expect(delays.values == [0, 0])
        for attempt in 1...2 {
            let failed = try metrics.expectTimer(
                ResilienceMetrics.attemptDuration,
                [("pipeline.name", "payments"), ("attempt.number", "\(attempt)"), ("error.type", outage)])
            #expect(failed.values.count == 1)
        }
        let succeeded = try metrics.expectTimer(
            ResilienceMetrics.attemptDuration, [("pipeline.name", "payments"), ("attempt.number", "3")])
        #expect(succeeded.values.count == 1)
        #expect(metrics.timers(label: ResilienceMetrics.attemptDuration).count == 3)
    }

    @Test func anOpeningCircuitIsCountedAndItsStateSet() async throws {
        try await runIntoAnOpenCircuit(events: ResilienceMetrics(pipeline: "payments", factory: metrics).events)

        #expect(counted(.retryScheduled, "notice", error: outage) == 2)
        #expect(counted(.circuitOpened, "warning") == 1)
        #expect(counted(.circuitRejected, "notice") == 1)
        #expect(counted(.retryGaveUp, "warning", error: String(reflecting: CircuitOpenError.self)) == 1)
        let state = { (state: String) in
            try self.metrics.expectGauge(
                ResilienceMetrics.circuitState, [("pipeline.name", "payments"), ("circuit.state", state)]
            ).lastValue
        }
        #expect(try state("open") == 1)
        #expect(try state("closed") == 0)
        #expect(try state("half_open") == 0)
        #expect(try state("isolated") == 0)
    }

    @Test func aCircuitClosingByHandSetsItsState() throws {
        let breaker = CircuitBreaker(events: ResilienceMetrics(pipeline: "payments", factory: metrics).events)
        breaker.isolate()
        breaker.reset()

        #expect(counted(.circuitIsolated, "warning") == 1)
        #expect(counted(.circuitClosed, "info") == 1)
        let closed = try metrics.expectGauge(
            ResilienceMetrics.circuitState, [("pipeline.name", "payments"), ("circuit.state", "closed")])
        #expect(closed.values == [0, 1])
    }
}
