import Streams

/// A call that a ``CircuitBreaker`` let through: which period of the circuit it belongs to,
/// whether it is a probe, and when it started. Its outcome is told back with it.
@usableFromInline
struct CircuitTicket: Sendable {
    /// The circuit's period (it changes with every transition) when the call was admitted: an
    /// outcome from an earlier period is not counted.
    @usableFromInline
    let generation: UInt64
    /// Whether the call is a half-open probe.
    @usableFromInline
    let isProbe: Bool
    /// When the call was admitted, on the time line of its scheduler.
    @usableFromInline
    let start: Duration

    @usableFromInline
    init(generation: UInt64, isProbe: Bool, start: Duration) {
        self.generation = generation
        self.isProbe = isProbe
        self.start = start
    }
}
