/// How busy a limiter is, told as ``ResilienceEvent/limiterUsage(_:)`` each time it admits,
/// queues, delays or lets go of a call (its refusals are ``ResilienceEvent/limiterRejected(_:)``).
///
/// ```swift
/// let events = ResilienceEvents { event in
///     if case .limiterUsage(let usage) = event, usage.limiter == .concurrency {
///         gauge.record(usage.inUse)
///     }
/// }
/// ```
public struct LimiterUsage: Sendable, Hashable, CustomStringConvertible {
    /// Which kind of limiter.
    public enum Limiter: Sendable, Hashable {
        /// A ``ConcurrencyLimiter``.
        case concurrency
        /// A ``RateLimiter``.
        case rate
        /// A ``PushbackLimiter``.
        case pushback
    }

    /// What happened to the call.
    public enum Change: Sendable, Hashable {
        /// Admitted at once.
        case admitted
        /// Put in the queue, to wait for a permit.
        case queued
        /// Admitted after `wait`: a rate limiter's next token, the server's instant.
        case delayed(Duration)
        /// A call gave its permit back (it ended, or stopped waiting).
        case released
    }

    /// The limiter.
    public let limiter: Limiter
    /// What happened.
    public let change: Change
    /// Permits in use after the change: a concurrency limiter's calls running, a rate
    /// limiter's tokens spent from its burst, a pushback limiter's calls in flight.
    public let inUse: Int
    /// Calls waiting after the change: in a concurrency limiter's queue, or for a rate
    /// limiter's reserved tokens.
    public let queued: Int

    /// Describes a limiter's usage.
    ///
    /// ```swift
    /// let usage = LimiterUsage(limiter: .concurrency, change: .admitted, inUse: 3, queued: 0)
    /// ```
    public init(limiter: Limiter, change: Change, inUse: Int, queued: Int) {
        self.limiter = limiter
        self.change = change
        self.inUse = inUse
        self.queued = queued
    }

    /// `concurrency admitted: 3 in use, 0 queued`.
    ///
    /// ```swift
    /// print(LimiterUsage(limiter: .rate, change: .delayed(.milliseconds(50)), inUse: 10, queued: 1))
    /// ```
    public var description: String {
        let change: String
        switch self.change {
        case .admitted: change = "admitted"
        case .queued: change = "queued"
        case .delayed(let wait): change = "delayed \(wait)"
        case .released: change = "released"
        }
        return "\(limiter) \(change): \(inUse) in use, \(queued) queued"
    }
}
