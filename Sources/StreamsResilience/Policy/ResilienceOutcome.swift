import Streams

/// What one attempt of a guarded call ended with, as ``ResiliencePolicy/retryWhen`` and
/// ``ResiliencePolicy/circuitBreakerWhen`` see it: the value (of whatever type the call returns,
/// so cast it), or the error, which is the operation's own error in both faces (never wrapped in
/// a ``ResilienceError``) or the error of the stage that stopped the attempt
/// (``AttemptTimeoutError``, ``CircuitOpenError``, ``LimiterRejectedError``).
///
/// ```swift
/// policy.retryWhen = { outcome in
///     if case .value(let reply as GraphQLReply) = outcome { return reply.errors.contains { $0.isTransient } }
///     return false
/// }
/// ```
public typealias ResilienceOutcome = AttemptOutcome<Any, any Error>
