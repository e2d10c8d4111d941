import Streams

/// One call through a ``CircuitBreaker`` whose outcome is not told yet: the breaker, the call's
/// ticket, and which failures count.
@usableFromInline
struct CircuitCall<Failure: Error> {
    @usableFromInline
    let breaker: CircuitBreaker
    @usableFromInline
    let ticket: CircuitTicket
    @usableFromInline
    let countsAsFailure: (Failure) -> Bool
    /// The events of the pipeline call this is an attempt of, if any.
    @usableFromInline
    let during: ResilienceEvents?

    @inlinable
    init(
        breaker: CircuitBreaker, ticket: CircuitTicket, countsAsFailure: @escaping (Failure) -> Bool,
        during: ResilienceEvents? = nil
    ) {
        self.breaker = breaker
        self.ticket = ticket
        self.countsAsFailure = countsAsFailure
        self.during = during
    }
}
