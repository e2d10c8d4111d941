import Streams

/// A rate limiter that many pipelines share: `permits` subscriptions per `period`, counted by a
/// token bucket (the default: on average, with bursts of up to `burst` at once), a fixed window
/// or a sliding window (``Algorithm``; the windows match "N per minute" quotas). A subscription
/// that finds no permit waits for the next one if it comes within `maxWait`, and otherwise fails
/// at once with ``ResilienceError/limiterRejected(_:)``, whose `Retry-After` hint is the time
/// until a permit is free. A batch call can take several permits at once
/// (`rateLimiter(_:permits:scheduler:)`).
///
/// Tokens are earned continuously (one every `period / permits`), and the bucket starts full.
/// With `maxWait` zero (the default) the limiter only sheds load; with a `maxWait` it smooths
/// bursts into a steady rate. A waiting subscription that is cancelled gives its token back.
/// Time is read from the scheduler of each pipeline that uses the limiter; share one limiter
/// only between pipelines whose schedulers are of one kind. Thread-safe; the state is kept
/// behind one lock.
///
/// ```swift
/// let search = RateLimiter(permits: 5, per: .seconds(1), maxWait: .seconds(2))
/// let results = query.flatMap { api.search($0).rateLimiter(search, scheduler: DispatchQueue.main) }
/// ```
public final class RateLimiter: Sendable {
    /// The subscriptions admitted per `period`, on average.
    public let permits: Int
    /// The period over which `permits` subscriptions are admitted.
    public let period: Duration
    /// The most subscriptions admitted at once after a quiet time.
    public let burst: Int
    /// The longest a subscription waits for a token before it is refused.
    public let maxWait: Duration
    /// How the permits are counted: a token bucket, a fixed or a sliding window.
    public let algorithm: Algorithm
    /// Told each refusal.
    public let events: ResilienceEvents

    let state: LockedState<RateLimiterStateMachine>

    /// Makes a limiter with a full bucket (or an empty window), that tells `events` its
    /// refusals. `permits` and `period` must be positive; `burst` (default `permits`, used by the
    /// token bucket only) at least 1; `maxWait` not negative.
    ///
    /// ```swift
    /// let limiter = RateLimiter(permits: 100, per: .seconds(60))   // 100 a minute, rejecting beyond
    /// let quota = RateLimiter(permits: 100, per: .seconds(60), algorithm: .fixedWindow)
    /// ```
    public init(
        permits: Int, per period: Duration, burst: Int? = nil, maxWait: Duration = .zero,
        algorithm: Algorithm = .tokenBucket, events: ResilienceEvents = .none
    ) {
        precondition(permits >= 1, "RateLimiter requires permits >= 1, got \(permits)")
        let interval = ResilienceTime.nanoseconds(period) / Int64(permits)
        precondition(interval >= 1, "RateLimiter requires a period of at least one nanosecond per permit, got \(period)")
        let burst = burst ?? permits
        precondition(burst >= 1, "RateLimiter requires burst >= 1, got \(burst)")
        precondition(maxWait >= .zero, "RateLimiter requires maxWait >= 0, got \(maxWait)")
        self.permits = permits
        self.period = period
        self.burst = burst
        self.maxWait = maxWait
        self.algorithm = algorithm
        self.events = events
        state = LockedState(
            RateLimiterStateMachine(
                algorithm: algorithm, limit: permits, period: ResilienceTime.nanoseconds(period), burst: burst,
                maxWait: ResilienceTime.nanoseconds(maxWait)))
    }

    /// The most permits one call may take: `burst` for the token bucket, `permits` for a window.
    public var maxPermitsPerCall: Int {
        algorithm == .tokenBucket ? burst : permits
    }

    /// The permits free at `now` (on the time line of the pipelines' scheduler): the whole tokens
    /// in the bucket, or the room left in the window.
    ///
    /// ```swift
    /// limiter.available(at: DispatchQueue.main.now)
    /// ```
    public func available<Instant: TimelineInstant>(at now: Instant) -> Int {
        let nanoseconds = ResilienceTime.nanoseconds(now.timelineOffset)
        return state.withLock { $0.available(at: nanoseconds) }
    }

    /// A call of `permits` asks to start at `now`: at once, after a wait (the permits are its
    /// meanwhile) or not at all. More permits than ``maxPermitsPerCall`` can never be had: that
    /// stops the program.
    @usableFromInline
    func acquire(_ permits: Int = 1, at now: Duration, during call: ResilienceEvents? = nil)
        -> RateLimiterStateMachine.AcquireAction
    {
        precondition(
            permits >= 1 && permits <= maxPermitsPerCall,
            "RateLimiter admits a call of 1 to \(maxPermitsPerCall) permits (its burst, or its permits per window), got \(permits)"
        )
        let nanoseconds = ResilienceTime.nanoseconds(now)
        let observed = events.isObserved(during: call)
        let (action, usage) = state.withLock { machine in
            (machine.acquire(permits, at: nanoseconds), observed ? machine.usage(at: nanoseconds) : nil)
        }
        switch action {
        case .reject(let refusal):
            events.emit(.limiterRejected(refusal), during: call)
        case .permit:
            if let usage { tellUsage(.admitted, usage, during: call) }
        case .delay(let wait):
            if let usage { tellUsage(.delayed(wait), usage, during: call) }
        }
        return action
    }

    /// Tells the observer the limiter's usage after `change`.
    private func tellUsage(_ change: LimiterUsage.Change, _ usage: (inUse: Int, queued: Int), during call: ResilienceEvents?) {
        events.emit(
            .limiterUsage(LimiterUsage(limiter: .rate, change: change, inUse: usage.inUse, queued: usage.queued)),
            during: call)
    }

    /// `permits` taken (or reserved) for `reservedAt`, for a call that will not run, come back.
    @usableFromInline
    func refund(_ permits: Int, reservedAt: Duration) {
        let nanoseconds = ResilienceTime.nanoseconds(reservedAt)
        let observed = events.isObserved
        let usage = state.withLock { machine in
            machine.refund(permits, reservedAt: nanoseconds)
            return observed ? machine.usage(at: nanoseconds) : nil
        }
        if let usage { tellUsage(.released, usage, during: nil) }
    }
}
