import Streams
import StreamsResilience

/// How the values events carry are written in metrics labels, log metadata and span attributes:
/// durations in seconds, states and reasons in snake case, and errors as their type and their
/// redacted description (never `String(describing:)`, which may show a secret).
enum ObservedValue {
    /// `error.type`: the error's fully qualified type name (`Foundation.URLError`), low in
    /// cardinality and free of the error's values, as OpenTelemetry's semantic conventions ask;
    /// for a `ResilienceError`, the name of the error it carries.
    static func errorType(_ error: any Error) -> String {
        if let wrapping = error as? any WrappingError { return errorType(wrapping.wrapped) }
        return String(reflecting: type(of: error))
    }

    /// The error as Streams' events show it: its `description` when its type is a
    /// `RedactingError`, otherwise its type, domain and code only.
    static func errorMessage(_ error: any Error) -> String {
        error.redactedDescription
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// `closed`, `open`, `half_open`, `isolated`, `disabled` or `metrics_only`.
    static func state(_ state: CircuitState) -> String {
        switch state {
        case .closed: "closed"
        case .open: "open"
        case .halfOpen: "half_open"
        case .isolated: "isolated"
        case .disabled: "disabled"
        case .metricsOnly: "metrics_only"
        }
    }

    /// The retry's reason for giving up, in snake case.
    static func reason(_ reason: RetryGiveUpReason) -> String {
        switch reason {
        case .notRetryable: "not_retryable"
        case .exhausted: "exhausted"
        case .deadline: "deadline"
        case .retryAfterOverLimit: "retry_after_over_limit"
        case .budgetEmpty: "budget_empty"
        case .circuitOpen: "circuit_open"
        }
    }

    /// `queue_full`, `rate_limited` or `server_pushback`.
    static func reason(_ reason: LimiterRejectedError.Reason) -> String {
        switch reason {
        case .queueFull: "queue_full"
        case .rateLimited: "rate_limited"
        case .serverPushback: "server_pushback"
        }
    }

    /// `concurrency`, `rate` or `pushback`.
    static func limiter(_ limiter: LimiterUsage.Limiter) -> String {
        switch limiter {
        case .concurrency: "concurrency"
        case .rate: "rate"
        case .pushback: "pushback"
        }
    }
}
