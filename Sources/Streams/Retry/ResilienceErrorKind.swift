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
}

/// An error that knows its ``ResilienceErrorKind``: StreamsResilience's timeout, deadline and
/// circuit errors, and its `ResilienceError` (by what it wraps).
@usableFromInline
package protocol ResilienceErrorClassifying: Error {
    var resilienceKind: ResilienceErrorKind { get }
}
