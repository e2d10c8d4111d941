import Logging
import StreamsResilience

/// The name of a ``ResilienceEvent`` in metrics, logs and traces: the `event.name` label of the
/// ``ResilienceMetrics/eventsCounter``, the `event.name` metadata of each log line, and the name
/// of each span event, as Polly v8's telemetry names its events (`OnRetry`, `OnCircuitOpened`, …)
/// in snake case.
///
/// ```swift
/// ResilienceEventName(.circuitStateChanged(.open)).rawValue   // "circuit_opened"
/// ResilienceEventName.severity(of: .circuitStateChanged(.open))   // .warning
/// ```
public enum ResilienceEventName: String, CaseIterable, Sendable {
    /// A circuit breaker opened (`circuitStateChanged(.open)`).
    case circuitOpened = "circuit_opened"
    /// A circuit breaker's break ended: it lets probes through (`circuitStateChanged(.halfOpen)`).
    case circuitHalfOpened = "circuit_half_opened"
    /// A circuit breaker closed (`circuitStateChanged(.closed)`).
    case circuitClosed = "circuit_closed"
    /// A circuit breaker was isolated by hand (`circuitStateChanged(.isolated)`).
    case circuitIsolated = "circuit_isolated"
    /// A circuit breaker was switched off by hand (`circuitStateChanged(.disabled)`).
    case circuitDisabled = "circuit_disabled"
    /// A circuit breaker was switched to shadow mode (`circuitStateChanged(.metricsOnly)`).
    case circuitMetricsOnly = "circuit_metrics_only"
    /// A circuit breaker in shadow mode reached its thresholds (`circuitWouldOpen`).
    case circuitWouldOpen = "circuit_would_open"
    /// A circuit breaker refused a call (`circuitRejected`).
    case circuitRejected = "circuit_rejected"
    /// An attempt ran into its timeout (`attemptTimedOut`).
    case attemptTimedOut = "attempt_timed_out"
    /// A call ran into its total timeout (`deadlineExceeded`).
    case deadlineExceeded = "deadline_exceeded"
    /// A concurrency or rate limiter refused a call (`limiterRejected`).
    case limiterRejected = "limiter_rejected"
    /// The retry will wait, then try again (`retryScheduled`).
    case retryScheduled = "retry_scheduled"
    /// The retry started an attempt (`attemptStarted`).
    case attemptStarted = "attempt_started"
    /// An attempt of the retry ended (`attemptEnded`).
    case attemptEnded = "attempt_ended"
    /// The retry gave up (`retryGaveUp`).
    case retryGaveUp = "retry_gave_up"
    /// Hedging started one more attempt beside the ones running (`hedgeStarted`).
    case hedgeStarted = "hedge_started"
    /// A circuit breaker recorded a call's outcome (`circuitCallRecorded`).
    case circuitCallRecorded = "circuit_call_recorded"
    /// A limiter admitted, queued, delayed or let go of a call (`limiterUsage`).
    case limiterUsage = "limiter_usage"
    /// The call failed and its fallback was asked for a value (`fallbackUsed`).
    case fallbackUsed = "fallback_used"

    /// The name of `event`.
    ///
    /// ```swift
    /// ResilienceEventName(.retryScheduled(retry: 1, delay: .seconds(1), error: CancellationError()))   // .retryScheduled
    /// ```
    public init(_ event: ResilienceEvent) {
        switch event {
        case .circuitStateChanged(.open): self = .circuitOpened
        case .circuitStateChanged(.halfOpen): self = .circuitHalfOpened
        case .circuitStateChanged(.closed): self = .circuitClosed
        case .circuitStateChanged(.isolated): self = .circuitIsolated
        case .circuitStateChanged(.disabled): self = .circuitDisabled
        case .circuitStateChanged(.metricsOnly): self = .circuitMetricsOnly
        case .circuitWouldOpen: self = .circuitWouldOpen
        case .circuitRejected: self = .circuitRejected
        case .attemptTimedOut: self = .attemptTimedOut
        case .deadlineExceeded: self = .deadlineExceeded
        case .limiterRejected: self = .limiterRejected
        case .retryScheduled: self = .retryScheduled
        case .attemptStarted: self = .attemptStarted
        case .attemptEnded: self = .attemptEnded
        case .retryGaveUp: self = .retryGaveUp
        case .hedgeStarted: self = .hedgeStarted
        case .circuitCallRecorded: self = .circuitCallRecorded
        case .limiterUsage: self = .limiterUsage
        case .fallbackUsed: self = .fallbackUsed
        }
    }

    /// How much `event` matters: the level of its log line and the `event.severity` label of its
    /// count.
    ///
    /// | event | severity |
    /// | --- | --- |
    /// | `circuit_opened`, `circuit_isolated`, `deadline_exceeded`, `limiter_rejected` | warning |
    /// | `retry_gave_up` (but for a `notRetryable` error) | warning |
    /// | `circuit_half_opened`, `circuit_rejected`, `circuit_would_open`, `attempt_timed_out`, `retry_scheduled`, `fallback_used` | notice |
    /// | `circuit_closed`, `circuit_disabled`, `circuit_metrics_only`, `hedge_started` | info |
    /// | `retry_gave_up` for a `notRetryable` error (the error was never the retry's to handle), `attempt_ended` | debug |
    /// | `attempt_started`, `circuit_call_recorded`, `limiter_usage` | trace |
    ///
    /// ```swift
    /// ResilienceEventName.severity(of: .attemptTimedOut(timeout: .seconds(10)))   // .notice
    /// ```
    public static func severity(of event: ResilienceEvent) -> Logger.Level {
        switch event {
        case .circuitStateChanged(.open), .circuitStateChanged(.isolated), .deadlineExceeded, .limiterRejected: .warning
        case .retryGaveUp(let reason, _, _): reason == .notRetryable ? .debug : .warning
        case .circuitStateChanged(.halfOpen), .circuitRejected, .circuitWouldOpen, .attemptTimedOut, .retryScheduled,
            .fallbackUsed:
            .notice
        case .circuitStateChanged(.closed), .circuitStateChanged(.disabled), .circuitStateChanged(.metricsOnly),
            .hedgeStarted:
            .info
        case .attemptEnded: .debug
        case .attemptStarted, .circuitCallRecorded, .limiterUsage: .trace
        }
    }
}
