import Streams

/// The shared limiter the server steers: when a server pushes back (a 429 or a 503 with
/// `Retry-After`, or a response announcing that its quota is spent until a reset), every call
/// that shares the limiter waits until that instant instead of being sent and refused in turn;
/// and, told the quota each response announces (``ServerQuota``), it keeps the calls within it,
/// so that the client slows down before the server refuses it.
///
/// A ``ResiliencePipeline`` whose policy has ``ResiliencePolicy/pushback`` makes one and feeds
/// it by itself: from each attempt's failure whose `Retry-After` hint the server gave (an
/// upstream error that is `RetryAfterProviding`), and from each value and failure that is
/// ``ServerQuotaProviding`` (StreamsNetworking's responses and errors). Each attempt, retries
/// and hedges included, asks it before it starts: it starts at once, waits (holding its place;
/// a cancel gives the place back), or, when the wait is longer than `maxWait`, fails at once
/// with ``LimiterRejectedError`` (reason `.serverPushback`) whose hint is the wait, which the
/// retry then waits out, or gives up on when it is longer than its `retryAfterLimit`.
///
/// Time is read from the scheduler (or clock) of each call; share one limiter only between
/// pipelines whose schedulers are of one kind. Thread-safe: the state is kept behind one lock,
/// and nothing is called while it is held.
///
/// ```swift
/// let pipeline = ResiliencePipeline(.standardHTTP)   // pushback on
/// let users = session.requestPublisher(for: usersURL).validateStatus()
///     .resilient(pipeline, scheduler: DispatchQueue.main)   // a 429 here pauses every call of the pipeline
/// print(pipeline.pushbackLimiter?.wait(at: DispatchQueue.main.now) ?? .zero)
/// ```
public final class PushbackLimiter: Sendable {
    /// The longest a call waits for the server's instant before it is refused.
    public let maxWait: Duration
    /// Whether the calls are kept within the quota each response announces.
    public let pacesToQuota: Bool
    /// Told each refusal.
    public let events: ResilienceEvents

    let state: LockedState<PushbackLimiterStateMachine>

    /// Makes a limiter with nothing announced yet. `maxWait` must not be negative.
    ///
    /// ```swift
    /// let limiter = PushbackLimiter(maxWait: .seconds(30))
    /// ```
    public init(maxWait: Duration = RetryAfter.defaultLimit, pacesToQuota: Bool = true, events: ResilienceEvents = .none) {
        precondition(maxWait >= .zero, "PushbackLimiter requires maxWait >= 0, got \(maxWait)")
        self.maxWait = maxWait
        self.pacesToQuota = pacesToQuota
        self.events = events
        state = LockedState(
            PushbackLimiterStateMachine(maxWait: ResilienceTime.nanoseconds(maxWait), pacesToQuota: pacesToQuota))
    }

    /// The server asked, at `now`, that no call start for `wait`: every call that asks from now
    /// on waits until then. A shorter request than one already in force changes nothing.
    ///
    /// ```swift
    /// limiter.pushBack(for: .seconds(2), at: DispatchQueue.main.now)
    /// ```
    public func pushBack<Instant: TimelineInstant>(for wait: Duration, at now: Instant) {
        pushBack(for: wait, at: now.timelineOffset)
    }

    /// A response read at `now` announced `quota`: the limiter keeps the calls within it. A
    /// quota with nothing left and a reset pauses every call until the reset, pacing or not.
    ///
    /// ```swift
    /// limiter.report(ServerQuota(limit: 5, remaining: 2, reset: .seconds(1)), at: DispatchQueue.main.now)
    /// ```
    public func report<Instant: TimelineInstant>(_ quota: ServerQuota, at now: Instant) {
        report(quota, at: now.timelineOffset, fromCall: false)
    }

    /// How long a call that asked at `now` would wait before it starts: zero when it would
    /// start at once.
    ///
    /// ```swift
    /// if limiter.wait(at: DispatchQueue.main.now) > .zero { showSlowDownNotice() }
    /// ```
    public func wait<Instant: TimelineInstant>(at now: Instant) -> Duration {
        let nanoseconds = ResilienceTime.nanoseconds(now.timelineOffset)
        return .nanoseconds(state.withLock { $0.wait(at: nanoseconds) })
    }

    func pushBack(for wait: Duration, at now: Duration) {
        let nanoseconds = ResilienceTime.nanoseconds(now)
        state.withLock { $0.pushBack(for: wait, at: nanoseconds) }
    }

    /// `quota`, read at `now` from the response of a call that may still hold its place (the
    /// others in flight are subtracted from what remains): StreamsNetworking's `reportsQuota`.
    package func reportFromCall(_ quota: ServerQuota, at now: Duration) {
        report(quota, at: now, fromCall: true)
    }

    func report(_ quota: ServerQuota, at now: Duration, fromCall: Bool) {
        guard !quota.isEmpty else { return }
        let nanoseconds = ResilienceTime.nanoseconds(now)
        state.withLock { $0.report(quota, at: nanoseconds, fromCall: fromCall) }
    }

    /// An attempt admitted by this limiter returned `value` at `now`: its announced quota, if any.
    func observe(value: Any, at now: Duration) {
        guard let quota = (value as? any ServerQuotaProviding)?.serverQuota else { return }
        report(quota, at: now, fromCall: true)
    }

    /// An attempt admitted by this limiter failed with the upstream's own `error` at `now`: the
    /// server's `Retry-After` hint pauses every call, and its announced quota is kept.
    func observe(failure error: any Error, at now: Duration) {
        if let quota = (error as? any ServerQuotaProviding)?.serverQuota { report(quota, at: now, fromCall: true) }
        if let wait = (error as? any RetryAfterProviding)?.retryAfter { pushBack(for: wait, at: now) }
    }

    /// Asks to start a call at `now`.
    func acquire(at now: Duration, during call: ResilienceEvents? = nil) -> PushbackLimiterStateMachine.AcquireAction {
        let nanoseconds = ResilienceTime.nanoseconds(now)
        let (action, inFlight) = state.withLock { ($0.acquire(at: nanoseconds), $0.inFlight) }
        switch action {
        case .reject(let refusal): events.emit(.limiterRejected(refusal), during: call)
        case .permit: tellUsage(.admitted, inFlight, during: call)
        case .delay(let wait): tellUsage(.delayed(wait), inFlight, during: call)
        }
        return action
    }

    /// A call admitted (at once or after its wait) ended.
    func finished() {
        let inFlight = state.withLock { machine in
            machine.release()
            return machine.inFlight
        }
        tellUsage(.released, inFlight, during: nil)
    }

    /// A call cancelled during its wait gives its place back.
    func cancelledWaiting() {
        let inFlight = state.withLock { machine in
            machine.abandon()
            return machine.inFlight
        }
        tellUsage(.released, inFlight, during: nil)
    }

    /// Tells the observer the calls in flight after `change`.
    private func tellUsage(_ change: LimiterUsage.Change, _ inFlight: Int, during call: ResilienceEvents?) {
        events.emit(.limiterUsage(LimiterUsage(limiter: .pushback, change: change, inUse: inFlight, queued: 0)), during: call)
    }
}

extension PushbackLimiter: SubscriptionGate {
    /// A call ended after it started.
    @usableFromInline
    func release() {
        finished()
    }

    /// A call was cancelled while it waited.
    @usableFromInline
    func abandon(_ waiter: ObjectIdentifier) {
        cancelledWaiting()
    }
}
