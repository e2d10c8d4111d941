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
}
