import Logging
import Metrics
import Streams
import StreamsExt
import StreamsResilience

/// The resilience events of one dependency, wired to swift-log and swift-metrics in one place.
///
/// Each event is logged (a warning when the circuit opens or a call is refused, a notice for a
/// timeout or a retry, info for a circuit closing) with the dependency and the event's details as
/// metadata, and counted in `resilience_events_total` with the dimensions `dependency` and
/// `event`; each retry's wait is recorded in the timer `resilience_retry_delay`.
///
/// ```swift
/// let registry = ResilienceRegistry(policy: .standardHTTP) { host in
///     ResilienceTelemetry.events(for: host, logger: Logger(label: "resilience"))
/// }
/// ```
public enum ResilienceTelemetry {
    /// The label of the events counter.
    public static let eventsCounter = "resilience_events_total"
    /// The label of the retry delay timer.
    public static let retryDelayTimer = "resilience_retry_delay"

    /// The observer that logs each event of `dependency` to `logger` and counts it with
    /// `metrics` (by default, the metrics system's factory).
    ///
    /// ```swift
    /// let pipeline = ResiliencePipeline(.standardHTTP, events: ResilienceTelemetry.events(for: "payments", logger: logger))
    /// ```
    public static func events(
        for dependency: String, logger: Logger, metrics: any MetricsFactory = MetricsSystem.factory
    ) -> ResilienceEvents {
        let counters = Dictionary(
            uniqueKeysWithValues: EventKind.allCases.map { kind in
                (
                    kind,
                    Counter(
                        label: eventsCounter, dimensions: [("dependency", dependency), ("event", kind.rawValue)],
                        factory: metrics)
                )
            })
        let retryDelay = Timer(label: retryDelayTimer, dimensions: [("dependency", dependency)], factory: metrics)
        return ResilienceEvents { event in
            let kind = EventKind(event)
            counters[kind]?.increment()
            var metadata: Logger.Metadata = ["dependency": "\(dependency)", "event": "\(kind.rawValue)"]
            switch event {
            case .circuitStateChanged(let state):
                logger.log(level: state == .closed ? .info : .warning, "circuit \(state)", metadata: metadata)
            case .circuitRejected(let refusal):
                if let left = refusal.retryAfter { metadata["retry_after"] = "\(left)" }
                logger.warning("call refused: circuit \(refusal.state)", metadata: metadata)
            case .attemptTimedOut(let timeout):
                metadata["timeout"] = "\(timeout)"
                logger.notice("attempt timed out", metadata: metadata)
            case .deadlineExceeded(let deadline):
                metadata["deadline"] = "\(deadline)"
                logger.warning("total timeout passed", metadata: metadata)
            case .limiterRejected(let refusal):
                metadata["reason"] = "\(refusal.reason)"
                logger.warning("call refused by a limiter", metadata: metadata)
            case .retryScheduled(let retry, let delay, let error):
                retryDelay.recordNanoseconds(Int64(delay / .nanoseconds(1)))
                metadata["retry"] = "\(retry)"
                metadata["delay"] = "\(delay)"
                metadata["error"] = "\(error.redactedDescription)"
                logger.notice("retrying", metadata: metadata)
            case .attemptStarted(let attempt):
                metadata["attempt"] = "\(attempt)"
                logger.debug("attempt started", metadata: metadata)
            case .attemptEnded(let attempt, let duration, let error):
                metadata["attempt"] = "\(attempt)"
                if let duration { metadata["duration"] = "\(duration)" }
                logger.debug(error == nil ? "attempt succeeded" : "attempt failed", metadata: metadata)
            case .retryGaveUp(let reason, let attempts, _):
                metadata["reason"] = "\(reason)"
                metadata["attempts"] = "\(attempts)"
                logger.warning("gave up retrying", metadata: metadata)
            case .hedgeStarted(let attempt, _):
                metadata["attempt"] = "\(attempt)"
                logger.info("hedged", metadata: metadata)
            }
        }
    }

    /// The value of the `event` dimension for each kind of event.
    public enum EventKind: String, CaseIterable, Sendable {
        case circuitOpened = "circuit_opened"
        case circuitHalfOpened = "circuit_half_opened"
        case circuitClosed = "circuit_closed"
        case circuitIsolated = "circuit_isolated"
        case circuitRejected = "circuit_rejected"
        case attemptTimedOut = "attempt_timed_out"
        case deadlineExceeded = "deadline_exceeded"
        case limiterRejected = "limiter_rejected"
        case retryScheduled = "retry_scheduled"
        case attemptStarted = "attempt_started"
        case attemptEnded = "attempt_ended"
        case retryGaveUp = "retry_gave_up"
        case hedgeStarted = "hedge_started"

        init(_ event: ResilienceEvent) {
            switch event {
            case .circuitStateChanged(.open): self = .circuitOpened
            case .circuitStateChanged(.halfOpen): self = .circuitHalfOpened
            case .circuitStateChanged(.closed): self = .circuitClosed
            case .circuitStateChanged(.isolated): self = .circuitIsolated
            case .circuitRejected: self = .circuitRejected
            case .attemptTimedOut: self = .attemptTimedOut
            case .deadlineExceeded: self = .deadlineExceeded
            case .limiterRejected: self = .limiterRejected
            case .retryScheduled: self = .retryScheduled
            case .attemptStarted: self = .attemptStarted
            case .attemptEnded: self = .attemptEnded
            case .retryGaveUp: self = .retryGaveUp
            case .hedgeStarted: self = .hedgeStarted
            }
        }
    }
}
