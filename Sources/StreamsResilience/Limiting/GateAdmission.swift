import Streams

/// What a timed gate (a ``RateLimiter``, the ``PushbackLimiter``) answers a call that asks to
/// start: start now, start after a wait (holding its place meanwhile), or not at all.
@usableFromInline
enum GateAdmission {
    /// Start now.
    case permit
    /// Start after this wait; the call holds its place meanwhile.
    case delay(Duration)
    /// Refused, with the refusal to fail with.
    case reject(LimiterRejectedError)
}
