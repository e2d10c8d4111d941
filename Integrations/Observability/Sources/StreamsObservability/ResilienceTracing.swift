import Streams
import StreamsResilience
import Tracing

/// The resilience events of one pipeline as events on the span of the call they belong to.
///
/// A call traced with `ResiliencePipeline.execute(tracing:…)` runs in a span of its own; this
/// observer adds what the pipeline's stages decide during that call to it, as span events named
/// by ``ResilienceEventName`` (`retry_scheduled`, `circuit_opened`, `attempt_timed_out`, …) with
/// their values as attributes, and sets the span's `pipeline.name`:
///
/// | span event | attributes |
/// | --- | --- |
/// | `retry_scheduled` | `attempt.number` (the attempt that failed), `retry.delay` (seconds), `error.type`, `error.message` |
/// | `retry_gave_up` | `retry.reason`, `attempt.count`, `error.type`, `error.message` |
/// | `circuit_opened`, `circuit_half_opened`, `circuit_closed`, `circuit_isolated` | `circuit.state` |
/// | `circuit_rejected` | `circuit.state`, `retry_after` (seconds) |
/// | `limiter_rejected` | `limiter.reason`, `retry_after` (seconds) |
/// | `attempt_timed_out`, `deadline_exceeded` | `timeout` (seconds) |
/// | `hedge_started` | `attempt.number`, and `error.type`, `error.message` after a failure |
///
/// Attempts are child spans of their own, made by `execute(tracing:…)`, so the attempt events
/// add nothing here. `error.message` is the error's `redactedDescription`.
///
/// Only the `async` face is traced: the stages of `execute` call the observer on the calling task
/// or its child tasks, where the call's span is known. A publisher guarded with
/// `resilient(_:scheduler:)` tells its events on its scheduler's threads, where no call span is
/// known: they are counted and logged, never added to a span. Events of the shared breaker or
/// limiters that happen during a traced call (a circuit opening on that call's failure) go to
/// that call's span.
///
/// ```swift
/// let pipeline = ResiliencePipeline(.standardHTTP, events: ResilienceTracing(pipeline: "users").events)
/// let user = try await pipeline.execute(tracing: "GET /users/{id}") { _ in try await api.user(id) }
/// ```
public struct ResilienceTracing: Sendable {
    /// The `pipeline.name` attribute of the spans it adds to.
    public let pipeline: String

    /// Adds the events of `pipeline` to the span of the traced call they happen in.
    ///
    /// ```swift
    /// let tracing = ResilienceTracing(pipeline: "users")
    /// ```
    public init(pipeline: String) {
        self.pipeline = pipeline
    }

    /// An observer that adds every event to the current call's span.
    ///
    /// ```swift
    /// let pipeline = ResiliencePipeline(policy, events: ResilienceTracing(pipeline: "users").events)
    /// ```
    public var events: ResilienceEvents {
        ResilienceEvents { event in record(event) }
    }

    /// Adds `event` to the span of the traced call running on this task; does nothing outside
    /// one (a publisher's events, an untraced `execute`).
    ///
    /// ```swift
    /// tracing.record(.circuitStateChanged(.open))
    /// ```
    public func record(_ event: ResilienceEvent) {
        guard let span = ResilienceCallSpan.current, span.isRecording else { return }
        var attributes: SpanAttributes = [:]
        switch event {
        case .attemptStarted, .attemptEnded, .circuitCallRecorded, .limiterUsage:
            return
        case .circuitStateChanged(let state):
            attributes["circuit.state"] = ObservedValue.state(state)
        case .circuitRejected(let refusal):
            attributes["circuit.state"] = ObservedValue.state(refusal.state)
            if let left = refusal.retryAfter { attributes["retry_after"] = ObservedValue.seconds(left) }
        case .circuitWouldOpen(let calls, let failures, let slowCalls):
            attributes["circuit.calls"] = calls
            attributes["circuit.failures"] = failures
            attributes["circuit.slow_calls"] = slowCalls
        case .attemptTimedOut(let timeout):
            attributes["timeout"] = ObservedValue.seconds(timeout)
        case .deadlineExceeded(let deadline):
            attributes["timeout"] = ObservedValue.seconds(deadline)
        case .limiterRejected(let refusal):
            attributes["limiter.reason"] = ObservedValue.reason(refusal.reason)
            if let left = refusal.retryAfter { attributes["retry_after"] = ObservedValue.seconds(left) }
        case .retryScheduled(let retry, let delay, let error):
            attributes["attempt.number"] = retry
            attributes["retry.delay"] = ObservedValue.seconds(delay)
            Self.describe(error, into: &attributes)
        case .retryGaveUp(let reason, let attempts, let error):
            attributes["retry.reason"] = ObservedValue.reason(reason)
            attributes["attempt.count"] = attempts
            Self.describe(error, into: &attributes)
        case .hedgeStarted(let attempt, let failure):
            attributes["attempt.number"] = attempt
            if let failure { Self.describe(failure, into: &attributes) }
        case .fallbackUsed(let error):
            Self.describe(error, into: &attributes)
        }
        span.attributes["pipeline.name"] = pipeline
        span.addEvent(SpanEvent(name: ResilienceEventName(event).rawValue, attributes: attributes))
    }

    /// Records `error` on `span` without its secrets: the error's redacted description as the
    /// recorded error (and `exception.message`), its type as `exception.type` and `error.type`,
    /// and the span's status as an error.
    static func recordFailure(_ error: any Error, on span: any Span) {
        let type = ObservedValue.errorType(error)
        span.recordError(RedactedSpanError(error), attributes: ["exception.type": .string(type)])
        span.attributes["error.type"] = type
        span.setStatus(SpanStatus(code: .error, message: ObservedValue.errorMessage(error)))
    }

    /// The error's type and redacted description.
    private static func describe(_ error: any Error, into attributes: inout SpanAttributes) {
        attributes["error.type"] = ObservedValue.errorType(error)
        attributes["error.message"] = ObservedValue.errorMessage(error)
    }
}
