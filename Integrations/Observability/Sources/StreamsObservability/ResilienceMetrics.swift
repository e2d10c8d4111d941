import Metrics
import Streams
import StreamsResilience

/// The resilience events of one pipeline as swift-metrics instruments, named after Polly v8's
/// telemetry (`resilience.polly.strategy.events`, `resilience.polly.strategy.attempt.duration`)
/// under the prefix `streams.resilience.`, with OpenTelemetry's attribute names where its semantic
/// conventions have one (`error.type`):
///
/// | instrument | kind | dimensions | what |
/// | --- | --- | --- | --- |
/// | `streams.resilience.events` | counter | `pipeline.name`, `event.name`, `event.severity`, `error.type` (events that carry an error) | every decision: each event but `attempt_started`, `attempt_ended`, `circuit_call_recorded` and `limiter_usage` |
/// | `streams.resilience.attempt.duration` | timer (seconds) | `pipeline.name`, `attempt.number`, `error.type` (failed attempts) | each attempt of a retry, from the `attemptEnded` event |
/// | `streams.resilience.retry.delay` | timer (seconds) | `pipeline.name` | each wait before a retry |
/// | `streams.resilience.circuit.state` | gauge | `pipeline.name`, `circuit.state` (`closed`, `open`, `half_open`, `isolated`) | 1 for the breaker's state, 0 for the others, from its first change on |
/// | `streams.resilience.circuit.calls` | counter | `pipeline.name`, `call.outcome` (`success`, `failure`) | each outcome the breaker recorded (a slow call is a failure) |
/// | `streams.resilience.limiter.in_use` | gauge | `pipeline.name`, `limiter.kind` (`concurrency`, `rate`, `pushback`) | the limiter's permits in use, after each change |
/// | `streams.resilience.limiter.queued` | gauge | `pipeline.name`, `limiter.kind` | the calls waiting for the limiter, after each change |
///
/// `event.name` is a ``ResilienceEventName`` and `event.severity` a swift-log level
/// (``ResilienceEventName/severity(of:)``). `error.type` is the error's fully qualified type name
/// (`Foundation.URLError`), never its description; for a publisher's `ResilienceError`, the name
/// of the error it carries, as `execute` throws it. Attempts are timed only where a retry stage
/// runs them, and only on a scheduler or clock whose time is a `TimelineInstant`. Backends
/// rename as they must: Prometheus shows `streams_resilience_events_total`.
///
/// ```swift
/// let metrics = ResilienceMetrics(pipeline: "payments")
/// let pipeline = ResiliencePipeline(.standardHTTP, events: metrics.events)
/// ```
public struct ResilienceMetrics: Sendable {
    /// The label of the events counter.
    public static let eventsCounter = "streams.resilience.events"
    /// The label of the attempt duration timer.
    public static let attemptDuration = "streams.resilience.attempt.duration"
    /// The label of the retry delay timer.
    public static let retryDelay = "streams.resilience.retry.delay"
    /// The label of the circuit state gauge.
    public static let circuitState = "streams.resilience.circuit.state"
    /// The label of the counter of outcomes a breaker recorded.
    public static let circuitCalls = "streams.resilience.circuit.calls"
    /// The label of the gauge of a limiter's permits in use.
    public static let limiterInUse = "streams.resilience.limiter.in_use"
    /// The label of the gauge of the calls waiting for a limiter.
    public static let limiterQueued = "streams.resilience.limiter.queued"

    /// The `pipeline.name` of every instrument.
    public let pipeline: String
    private let instruments: MetricInstruments

    /// Records the events of `pipeline` with `factory` (by default, the metrics system's).
    ///
    /// ```swift
    /// let metrics = ResilienceMetrics(pipeline: "payments", factory: prometheus)
    /// ```
    public init(pipeline: String, factory: any MetricsFactory = MetricsSystem.factory) {
        self.pipeline = pipeline
        instruments = MetricInstruments(factory: factory)
    }

    /// An observer that records every event.
    ///
    /// ```swift
    /// let breaker = CircuitBreaker(events: ResilienceMetrics(pipeline: "search").events)
    /// ```
    public var events: ResilienceEvents {
        ResilienceEvents { event in record(event) }
    }

    /// Records `event`: counts it, times an attempt, records a retry's delay, sets the circuit's
    /// state.
    ///
    /// ```swift
    /// metrics.record(.circuitStateChanged(.open))
    /// ```
    public func record(_ event: ResilienceEvent) {
        let name = ResilienceEventName(event)
        switch event {
        case .attemptStarted:
            return
        case .circuitCallRecorded(let failed, _):
            let dimensions = [("pipeline.name", pipeline), ("call.outcome", failed ? "failure" : "success")]
            instruments.counter(Self.circuitCalls, dimensions).increment()
            return
        case .limiterUsage(let usage):
            let dimensions = [("pipeline.name", pipeline), ("limiter.kind", ObservedValue.limiter(usage.limiter))]
            instruments.gauge(Self.limiterInUse, dimensions).record(usage.inUse)
            instruments.gauge(Self.limiterQueued, dimensions).record(usage.queued)
            return
        case .attemptEnded(let attempt, let duration, let error):
            guard let duration else { return }
            var dimensions = [("pipeline.name", pipeline), ("attempt.number", String(attempt))]
            if let error { dimensions.append(("error.type", ObservedValue.errorType(error))) }
            instruments.timer(Self.attemptDuration, dimensions).record(duration: duration)
            return
        case .retryScheduled(_, let delay, _):
            instruments.timer(Self.retryDelay, [("pipeline.name", pipeline)]).record(duration: delay)
        case .circuitStateChanged(let state):
            for each in [CircuitState.closed, .open, .halfOpen, .isolated, .disabled, .metricsOnly] {
                let dimensions = [("pipeline.name", pipeline), ("circuit.state", ObservedValue.state(each))]
                instruments.gauge(Self.circuitState, dimensions).record(each == state ? 1 : 0)
            }
        default:
            break
        }
        var dimensions = [
            ("pipeline.name", pipeline), ("event.name", name.rawValue),
            ("event.severity", ResilienceEventName.severity(of: event).rawValue),
        ]
        if let error = Self.error(of: event) { dimensions.append(("error.type", ObservedValue.errorType(error))) }
        instruments.counter(Self.eventsCounter, dimensions).increment()
    }

    /// The error an event carries, if any.
    private static func error(of event: ResilienceEvent) -> (any Error)? {
        switch event {
        case .retryScheduled(_, _, let error), .retryGaveUp(_, _, let error): error
        case .hedgeStarted(_, let failure): failure
        case .fallbackUsed(let error): error
        case .attemptEnded(_, _, let error): error
        default: nil
        }
    }
}
