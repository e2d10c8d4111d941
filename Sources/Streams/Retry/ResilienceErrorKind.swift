import Foundation

/// What the retry (and StreamsResilience's hedging) need to know about an error of any type:
/// whether it is a timeout (a ``RetryBudget`` charges those more), a passed deadline, or a
/// circuit breaker's refusal.
///
/// StreamsResilience's errors tell their kind through ``ResilienceErrorClassifying``;
/// `URLError(.timedOut)` counts as a timeout.
@usableFromInline
package enum ResilienceErrorKind {
    case timeout
    case deadline
    case circuitOpen
    case other

    /// The kind of `error`.
    @usableFromInline
    package static func of(_ error: any Error) -> ResilienceErrorKind {
        switch error {
        case let classified as any ResilienceErrorClassifying: classified.resilienceKind
        case let urlError as URLError where urlError.code == .timedOut: .timeout
        default: .other
        }
    }

    /// Whether `error` forbids sending a call again when the call is not safe to repeat (a POST
    /// without an `Idempotency-Key`, say): a timeout of any kind (a transport's, an attempt
    /// timeout, a hand-made one that is classified as a timeout) that may have cut the attempt
    /// off after the server received it. The one rule of the selective retry of
    /// StreamsResilience's pipeline and of its `async` face; a refusal (an open circuit, a
    /// limiter) and a failure before sending are not timeouts that reached the server.
    @inlinable
    package static func forbidsRepeat(_ error: any Error, isSafeToRepeat: Bool) -> Bool {
        guard !isSafeToRepeat, of(error) == .timeout else { return false }
        return ((error as Any) as? any ResilienceErrorClassifying)?.mayHaveReachedServer ?? true
    }
}

/// An error that knows its ``ResilienceErrorKind``: StreamsResilience's timeout, deadline and
/// circuit errors, and its `ResilienceError` (by what it wraps).
@usableFromInline
package protocol ResilienceErrorClassifying: Error {
    var resilienceKind: ResilienceErrorKind { get }
    /// For a timeout: whether the attempt may have reached the server before it was cut off
    /// (true unless the error knows it never left).
    var mayHaveReachedServer: Bool { get }
}

extension ResilienceErrorClassifying {
    @usableFromInline
    package var mayHaveReachedServer: Bool { true }
}
