import Streams

/// A token-bucket rate limiter that many pipelines share: `permits` subscriptions per `period`
/// on average, with bursts of up to `burst` at once. A subscription that finds no token waits
/// for the next one if it comes within `maxWait`, and otherwise fails at once with
/// ``ResilienceError/limiterRejected(_:)``, whose `Retry-After` hint is the time until a token
/// is free.
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
    /// Told each refusal.
    public let events: ResilienceEvents

    let state: LockedState<RateLimiterStateMachine>

    /// Makes a limiter with a full bucket, that tells `events` its refusals. `permits` and
    /// `period` must be positive; `burst` (default `permits`) at least 1; `maxWait` not negative.
    ///
    /// ```swift
    /// let limiter = RateLimiter(permits: 100, per: .seconds(60))   // 100 a minute, rejecting beyond
    /// ```
    public init(
        permits: Int, per period: Duration, burst: Int? = nil, maxWait: Duration = .zero, events: ResilienceEvents = .none
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
        self.events = events
        state = LockedState(
            RateLimiterStateMachine(interval: interval, burst: burst, maxWait: ResilienceTime.nanoseconds(maxWait)))
    }

    /// The whole tokens in the bucket at `now` (on the time line of the pipelines' scheduler).
    ///
    /// ```swift
    /// limiter.available(at: DispatchQueue.main.now)
    /// ```
    public func available<Instant: TimelineInstant>(at now: Instant) -> Int {
        let nanoseconds = ResilienceTime.nanoseconds(now.timelineOffset)
        return state.withLock { $0.available(at: nanoseconds) }
    }

    @usableFromInline
    func acquire(at now: Duration, during call: ResilienceEvents? = nil) -> RateLimiterStateMachine.AcquireAction {
        let nanoseconds = ResilienceTime.nanoseconds(now)
        let observed = events.isObserved(during: call)
        let (action, usage) = state.withLock { machine in
            (machine.acquire(at: nanoseconds), observed ? machine.usage : nil)
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
}

extension RateLimiter: SubscriptionGate {
    /// A call ended: a token is spent for good.
    @usableFromInline
    func release() {}

    /// A call was cancelled while waiting for its token: the token comes back.
    @usableFromInline
    func abandon(_ waiter: ObjectIdentifier) {
        refund()
    }

    /// A token taken for a call that will not run comes back.
    @usableFromInline
    func refund() {
        let observed = events.isObserved
        let usage = state.withLock { machine in
            machine.refund()
            return observed ? machine.usage : nil
        }
        if let usage { tellUsage(.released, usage, during: nil) }
    }
}
