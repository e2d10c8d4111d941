/// How a backoff randomises its delays, so that many clients that failed together do not retry
/// together.
///
/// For a base delay `base` (see ``Backoff/baseDelay(forRetry:)``):
/// - `.none`: `base`.
/// - `.full`: uniform in `0...base`.
/// - `.equal`: `base / 2` plus uniform in `0...base / 2`.
/// - `.decorrelated`: uniform in `initial...3 * previous delay`, capped at the maximum delay.
///
/// ```swift
/// let backoff = Backoff.exponential(initial: .milliseconds(100), jitter: .equal)
/// ```
public enum Jitter: Sendable, Hashable {
    /// No randomness.
    case none
    /// Uniform between zero and the base delay: the widest spread.
    case full
    /// Half the base delay plus a uniform half: never less than half.
    case equal
    /// Each delay drawn from the initial delay to three times the previous one.
    case decorrelated
}
