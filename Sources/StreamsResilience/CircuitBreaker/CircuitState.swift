import Streams

/// The state of a ``CircuitBreaker``.
///
/// ```swift
/// breaker.statePublisher.sink { state in
///     if state == .open { banner.show("The service is unavailable") }
/// }
/// ```
public enum CircuitState: Sendable, Hashable {
    /// Calls go through; their outcomes are sampled.
    case closed
    /// Calls fail fast until the break ends.
    case open
    /// The break has ended: a few probe calls go through, and their outcomes decide whether the
    /// circuit closes or opens again; other calls fail fast.
    case halfOpen
    /// Opened by hand with ``CircuitBreaker/isolate()``: calls fail fast until
    /// ``CircuitBreaker/reset()``.
    case isolated
    /// Switched off by hand with ``CircuitBreaker/disable()``: every call goes through, nothing
    /// is recorded, the circuit never opens, until ``CircuitBreaker/reset()`` (resilience4j's
    /// `DISABLED`).
    case disabled
    /// Switched to shadow mode with ``CircuitBreaker/switchToMetricsOnly()``: every call goes
    /// through and its outcome is recorded as when closed, but the circuit never opens; reaching
    /// the thresholds is told as ``ResilienceEvent/circuitWouldOpen(calls:failures:slowCalls:)``
    /// (resilience4j's `METRICS_ONLY`).
    case metricsOnly
}
