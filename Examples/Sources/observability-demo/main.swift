// The resilience events of two dependencies as logs, metrics and a trace, through
// StreamsObservability: a flaky price service that a retry gets through, and an inventory service
// that is down until its circuit opens. The log lines go to standard output as they happen; the
// metrics (recorded by swift-metrics' test backend) and the spans (by swift-distributed-tracing's
// in-memory tracer) are printed at the end. Exits with 0 when every call did what it should.
//
//     swift run --package-path Examples observability-demo

import Foundation
import InMemoryTracing
import Logging
import MetricsTestKit
import Streams
import StreamsObservability
import StreamsResilience
import Synchronization

/// A failure whose description holds no secret, so logs and spans may show it.
struct Unavailable: CategorizedError, RedactingError, CustomStringConvertible {
    var category: ErrorCategory { .retryable }
    var description: String { "503 Service Unavailable" }
}

LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardOutput(label: label)
    handler.logLevel = .info
    return handler
}
let metrics = TestMetrics()
let tracer = InMemoryTracer()
let registry = ResilienceRegistry(
    policy: ResiliencePolicy(
        retry: .init(maxRetries: 3, backoff: .constant(.milliseconds(20))),
        circuitBreaker: .init(failureRatio: 0.5, window: .count(10), minimumThroughput: 3, breakDuration: .seconds(30)),
        attemptTimeout: .seconds(1))
) { dependency in
    ResilienceObservability.events(for: dependency, metrics: metrics)
}

// The price service fails twice, then answers.
let priceCalls = Mutex(0)
let price = try await registry.pipeline(for: "prices").execute(tracing: "GET /prices/42", tracer: tracer) { _ in
    let call = priceCalls.withLock { count in
        count += 1
        return count
    }
    if call <= 2 { throw Unavailable() }
    return 1999
}

// The inventory service is down: the third failure opens its circuit, which refuses the last retry.
var inventoryError: (any Error)?
do {
    _ = try await registry.pipeline(for: "inventory").execute(tracing: "GET /stock/42", tracer: tracer) { _ -> Int in
        throw Unavailable()
    }
} catch {
    inventoryError = error
}

print("\nmetrics:")
for counter in metrics.counters.sorted(by: { "\($0.dimensions)" < "\($1.dimensions)" }) {
    let labels = counter.dimensions.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
    print("  \(counter.label) \(labels): \(counter.totalValue)")
}
for timer in metrics.timers.sorted(by: { "\($0.label) \($0.dimensions)" < "\($1.label) \($1.dimensions)" }) {
    let labels = timer.dimensions.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
    let seconds = timer.values.map { String(format: "%.3f", Double($0) / 1e9) }.joined(separator: ", ")
    print("  \(timer.label) \(labels): [\(seconds)] s")
}
for gauge in metrics.recorders.sorted(by: { "\($0.dimensions)" < "\($1.dimensions)" }) {
    let labels = gauge.dimensions.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
    print("  \(gauge.label) \(labels): \(gauge.lastValue.map { "\(Int($0))" } ?? "none")")
}

print("\ntrace:")
let spans = tracer.finishedSpans
let status = { (span: FinishedInMemorySpan) in span.status.map { "\($0.code)" } ?? "unset" }
for call in spans where call.parentSpanID == nil {
    print("  \(call.operationName) status=\(status(call))")
    for event in call.events { print("    event \(event.name)") }
    for attempt in spans where attempt.parentSpanID == call.spanID {
        let number = if case .int64(let number)? = attempt.attributes.get("attempt.number") { "\(number)" } else { "?" }
        print("    span \(attempt.operationName) attempt.number=\(number) status=\(status(attempt))")
    }
}

// Two calls, with three attempts each (the inventory's fourth was refused).
let succeeded = price == 1999 && inventoryError is CircuitOpenError && spans.count == 8
print(succeeded ? "\nevery call did what it should" : "\nFAILED: a call did not do what it should")
exit(succeeded ? 0 : 1)
