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

    @inlinable
    init(breaker: CircuitBreaker, ticket: CircuitTicket, countsAsFailure: @escaping (Failure) -> Bool) {
        self.breaker = breaker
        self.ticket = ticket
        self.countsAsFailure = countsAsFailure
    }
}
