import Logging
import Streams
import StreamsResilience

/// The resilience events of one pipeline as swift-log lines: one line per decision, at the
/// event's ``ResilienceEventName/severity(of:)`` (a circuit opening is a warning, a retry a
/// notice, an attempt's start a trace), with the pipeline and the event's values as metadata.
///
/// Every line has `pipeline.name` and `event.name`; then, by event:
///
/// | event | message | metadata |
/// | --- | --- | --- |
/// | `circuit_opened`, `circuit_half_opened`, `circuit_closed`, `circuit_isolated` | `circuit open`, … | `circuit.state` |
/// | `circuit_rejected` | `call refused: circuit open` | `circuit.state`, `retry_after` |
/// | `attempt_timed_out` | `attempt timed out` | `timeout` |
/// | `deadline_exceeded` | `call ran out of time` | `timeout` |
/// | `limiter_rejected` | `call refused by a limiter` | `limiter.reason`, `retry_after` |
/// | `retry_scheduled` | `retrying` | `attempt.number` (the attempt that failed), `retry.delay`, `error.type`, `error.message` |
/// | `attempt_started` | `attempt started` | `attempt.number` |
/// | `attempt_ended` | `attempt succeeded`, `attempt failed` | `attempt.number`, `attempt.duration`, `error.type`, `error.message` |
/// | `retry_gave_up` | `gave up retrying` | `retry.reason`, `attempt.count`, `error.type`, `error.message` |
/// | `hedge_started` | `hedging` | `attempt.number`, and `error.type`, `error.message` after a failure |
/// | `fallback_used` | `falling back` | `error.type`, `error.message` |
/// | `circuit_call_recorded` | `call succeeded`, `call failed` (as the breaker counts it) | `attempt.duration` |
/// | `limiter_usage` | `limiter admitted a call`, … | `limiter.kind`, `limiter.in_use`, `limiter.queued`, `limiter.wait` (a delay) |
///
/// With its ``ResilienceEventContext`` (the observer of ``events`` has it), a line also has
/// `attempt.number` (the attempt it happened in, unless the event says its own),
/// `http.request.method` and `request.origin` (the request's method and origin, never its path
/// or query), and `operation.name` when the operation's name differs from `pipeline.name`.
///
/// Durations are in seconds (`retry.delay: 0.25`). `error.message` is the error's
/// `redactedDescription`: its own description only when its type is a `RedactingError`,
/// otherwise its type, domain and code, so that a URL's query or a token an error holds never
/// reaches a log. Nothing is built for a line the logger's level leaves out.
///
/// ```swift
/// let logging = ResilienceLogging(pipeline: "payments", logger: Logger(label: "resilience"))
/// let pipeline = ResiliencePipeline(.standardHTTP, events: logging.events)
/// // notice: retrying [pipeline.name: payments, event.name: retry_scheduled, attempt.number: 1, retry.delay: 2.0, …]
/// ```
public struct ResilienceLogging: Sendable {
    /// The `pipeline.name` of every line.
    public let pipeline: String
    /// Where the lines go.
    public let logger: Logger

    /// Logs the events of `pipeline` to `logger`.
    ///
    /// ```swift
    /// let logging = ResilienceLogging(pipeline: "search", logger: Logger(label: "resilience"))
    /// ```
    public init(pipeline: String, logger: Logger) {
        self.pipeline = pipeline
        self.logger = logger
    }

    /// An observer that logs every event.
    ///
    /// ```swift
    /// let breaker = CircuitBreaker(events: ResilienceLogging(pipeline: "search", logger: logger).events)
    /// ```
    public var events: ResilienceEvents {
        ResilienceEvents { event, context in log(event, context: context) }
    }

    /// Logs `event`, if the logger's level lets its severity through.
    ///
    /// ```swift
    /// logging.log(.circuitStateChanged(.open))   // warning: circuit open [pipeline.name: payments, …]
    /// ```
    public func log(_ event: ResilienceEvent, context: ResilienceEventContext = ResilienceEventContext()) {
        let level = ResilienceEventName.severity(of: event)
        guard logger.logLevel <= level else { return }
        var metadata: Logger.Metadata = [
            "pipeline.name": "\(pipeline)", "event.name": "\(ResilienceEventName(event).rawValue)",
        ]
        if let attempt = context.attempt { metadata["attempt.number"] = "\(attempt)" }
        if let request = context.request {
            metadata["http.request.method"] = "\(request.method)"
            metadata["request.origin"] = "\(request.origin)"
        }
        if let operation = context.operation, operation != pipeline { metadata["operation.name"] = "\(operation)" }
        let message: Logger.Message
        switch event {
        case .circuitStateChanged(let state):
            metadata["circuit.state"] = "\(ObservedValue.state(state))"
            message = "circuit \(ObservedValue.state(state).replacing("_", with: "-"))"
        case .circuitRejected(let refusal):
            metadata["circuit.state"] = "\(ObservedValue.state(refusal.state))"
            if let left = refusal.retryAfter { metadata["retry_after"] = "\(ObservedValue.seconds(left))" }
            message = "call refused: circuit \(ObservedValue.state(refusal.state).replacing("_", with: "-"))"
        case .circuitWouldOpen(let calls, let failures, let slowCalls):
            metadata["circuit.calls"] = "\(calls)"
            metadata["circuit.failures"] = "\(failures)"
            metadata["circuit.slow_calls"] = "\(slowCalls)"
            message = "circuit would open (metrics only)"
        case .attemptTimedOut(let timeout):
            metadata["timeout"] = "\(ObservedValue.seconds(timeout))"
            message = "attempt timed out"
        case .deadlineExceeded(let deadline):
            metadata["timeout"] = "\(ObservedValue.seconds(deadline))"
            message = "call ran out of time"
        case .limiterRejected(let refusal):
            metadata["limiter.reason"] = "\(ObservedValue.reason(refusal.reason))"
            if let left = refusal.retryAfter { metadata["retry_after"] = "\(ObservedValue.seconds(left))" }
            message = "call refused by a limiter"
        case .retryScheduled(let retry, let delay, let error):
            metadata["attempt.number"] = "\(retry)"
            metadata["retry.delay"] = "\(ObservedValue.seconds(delay))"
            Self.describe(error, into: &metadata)
            message = "retrying"
        case .attemptStarted(let attempt):
            metadata["attempt.number"] = "\(attempt)"
            message = "attempt started"
        case .attemptEnded(let attempt, let duration, let error):
            metadata["attempt.number"] = "\(attempt)"
            if let duration { metadata["attempt.duration"] = "\(ObservedValue.seconds(duration))" }
            if let error { Self.describe(error, into: &metadata) }
            message = error == nil ? "attempt succeeded" : "attempt failed"
        case .retryGaveUp(let reason, let attempts, let error):
            metadata["retry.reason"] = "\(ObservedValue.reason(reason))"
            metadata["attempt.count"] = "\(attempts)"
            Self.describe(error, into: &metadata)
            message = "gave up retrying"
        case .hedgeStarted(let attempt, let failure):
            metadata["attempt.number"] = "\(attempt)"
            if let failure { Self.describe(failure, into: &metadata) }
            message = "hedging"
        case .fallbackUsed(let error):
            Self.describe(error, into: &metadata)
            message = "falling back"
        case .circuitCallRecorded(let failed, let duration):
            metadata["attempt.duration"] = "\(ObservedValue.seconds(duration))"
            message = failed ? "call failed" : "call succeeded"
        case .limiterUsage(let usage):
            metadata["limiter.kind"] = "\(ObservedValue.limiter(usage.limiter))"
            metadata["limiter.in_use"] = "\(usage.inUse)"
            metadata["limiter.queued"] = "\(usage.queued)"
            switch usage.change {
            case .admitted: message = "limiter admitted a call"
            case .queued: message = "limiter queued a call"
            case .delayed(let wait):
                metadata["limiter.wait"] = "\(ObservedValue.seconds(wait))"
                message = "limiter delayed a call"
            case .released: message = "limiter let go of a call"
            }
        }
        logger.log(level: level, message, metadata: metadata)
    }

    /// The error's type and redacted description.
    private static func describe(_ error: any Error, into metadata: inout Logger.Metadata) {
        metadata["error.type"] = "\(ObservedValue.errorType(error))"
        metadata["error.message"] = "\(ObservedValue.errorMessage(error))"
    }
}
