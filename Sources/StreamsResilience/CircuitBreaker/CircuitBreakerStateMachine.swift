import Streams

/// The state of a ``CircuitBreaker``: a value with no lock and no callouts. Each event updates it
/// and returns what the breaker must do once the lock is released.
///
/// Phases:
/// - `closed`: every call is admitted; each outcome goes into the window, and a failure that
///   brings the window to `minimumThroughput` calls or more with a failure ratio at or above
///   `failureRatio` → `open`.
/// - `open(until)`: calls are refused with the time left; the first call at or after `until`
///   → `halfOpen` and is its first probe.
/// - `halfOpen(admitted, succeeded, since)`: up to `halfOpenProbes` probes are admitted, others
///   refused; a failed (or slow) probe → `open` with a longer break (if it grows), all probes
///   succeeded → `closed` with an empty window. A cancelled probe gives its place back. A call at
///   or after `since + maxHalfOpenWait` finds the circuit opened again at that instant (probes
///   that never ended), and meets that break, or becomes the next first probe.
/// - `isolated`: every call is refused until `reset`.
/// - `disabled`: every call is admitted and nothing is recorded, until `reset` (or another
///   state set by hand).
/// - `metricsOnly`: every call is admitted and its outcome goes into the window as when closed,
///   but the circuit never opens: the outcome that brings the window to the thresholds is told
///   (`thresholdsReached`), once until the window falls below them again.
///
/// By hand: `isolate`, `disable`, `switchToMetricsOnly` and `open(until:)` (a break of a chosen
/// length, after which probes decide as usual) move from any state; `reset` closes.
///
/// Every transition starts a new period (`generation`); the outcome of a call admitted in an
/// earlier period is not counted. Each transition queues the new state for the observers; one
/// caller at a time delivers the queue (`draining`), in order, outside the lock.
@usableFromInline
struct CircuitBreakerStateMachine {
    enum Phase {
        case closed
        case open(until: Duration)
        /// `since`: when the break ended (the first probe's admission), for `maxHalfOpenWait`.
        case halfOpen(admitted: Int, succeeded: Int, since: Duration)
        case isolated
        case disabled
        case metricsOnly
    }

    /// What the breaker does with a call that asks to go through.
    @usableFromInline
    enum AcquireAction {
        /// Let the call through.
        case permit(CircuitTicket)
        /// Let the call through as the first probe of the half-open circuit; tell the observers.
        case permitAndNotify(CircuitTicket)
        /// Refuse the call.
        case reject(CircuitOpenError)
        /// Refuse the call; the circuit changed state first (it opened again when its probes
        /// outlasted `maxHalfOpenWait`): tell the observers.
        case rejectAndNotify(CircuitOpenError)
    }

    /// Whether an event changed the state, which the observers must then be told.
    enum TransitionAction {
        case none
        case notify
        /// Metrics only: the window reached the thresholds at which a closed circuit opens.
        case thresholdsReached(calls: Int, failures: Int, slowCalls: Int)
    }

    /// What the caller who asked to deliver the queued states must deliver.
    enum DrainAction {
        case deliver([CircuitState])
        case none
    }

    let configuration: CircuitBreaker.Configuration
    var phase = Phase.closed
    var generation: UInt64 = 0
    var window: FailureWindow
    /// Openings since the circuit last closed, for the growing break.
    var openings = 0
    /// States not yet delivered to the observers, oldest first.
    var queued: [CircuitState] = []
    /// Whether a caller is delivering `queued`.
    var draining = false
    /// When the state last changed, on the time line; nil before the first change and after a
    /// change by hand (`isolate`, `reset`), which reads no time.
    var changedAt: Duration?
    /// Metrics only: whether the window is at or above the thresholds (told once per crossing).
    var atThresholds = false

    init(configuration: CircuitBreaker.Configuration) {
        self.configuration = configuration
        window = FailureWindow(configuration.window)
    }

    var state: CircuitState {
        switch phase {
        case .closed: .closed
        case .open: .open
        case .halfOpen: .halfOpen
        case .isolated: .isolated
        case .disabled: .disabled
        case .metricsOnly: .metricsOnly
        }
    }

    /// A call asks to go through at `now`.
    mutating func acquire(at now: Duration) -> AcquireAction {
        switch phase {
        case .closed:
            return .permit(CircuitTicket(generation: generation, isProbe: false, start: now))
        case .open(let until):
            guard now >= until else { return .reject(CircuitOpenError(state: .open, retryAfter: until - now)) }
            transition(to: .halfOpen(admitted: 1, succeeded: 0, since: now), at: now)
            return .permitAndNotify(CircuitTicket(generation: generation, isProbe: true, start: now))
        case .halfOpen(let admitted, let succeeded, let since):
            if let maxWait = configuration.maxHalfOpenWait, now >= since + maxWait {
                // The probes took too long: the circuit opened again when the wait ran out (the
                // transition is made now, at the next call), and this call meets that break.
                open(at: since + maxWait)
                if case .open(let until) = phase, now < until {
                    return .rejectAndNotify(CircuitOpenError(state: .open, retryAfter: until - now))
                }
                transition(to: .halfOpen(admitted: 1, succeeded: 0, since: now))
                return .permitAndNotify(CircuitTicket(generation: generation, isProbe: true, start: now))
            }
            guard admitted < configuration.halfOpenProbes else {
                return .reject(CircuitOpenError(state: .halfOpen, retryAfter: nil))
            }
            phase = .halfOpen(admitted: admitted + 1, succeeded: succeeded, since: since)
            return .permit(CircuitTicket(generation: generation, isProbe: true, start: now))
        case .isolated:
            return .reject(CircuitOpenError(state: .isolated, retryAfter: nil))
        case .disabled, .metricsOnly:
            return .permit(CircuitTicket(generation: generation, isProbe: false, start: now))
        }
    }

    /// The call of `ticket` ended at `now`; `failed`: it failed with a counted error.
    mutating func record(_ ticket: CircuitTicket, failed: Bool, at now: Duration) -> TransitionAction {
        guard ticket.generation == generation else { return .none }
        var failed = failed
        var slow = false
        if let threshold = configuration.slowCallThreshold, now - ticket.start >= threshold {
            // Counted apart when the slow calls have a ratio of their own, as a failure if not.
            if configuration.slowCallRatio == nil { failed = true } else { slow = true }
        }
        switch phase {
        case .closed:
            window.record(failed: failed, slow: slow, at: now)
            guard failed || slow, reachesThresholds(at: now) else { return .none }
            open(at: now)
            return .notify
        case .metricsOnly:
            window.record(failed: failed, slow: slow, at: now)
            let reached = reachesThresholds(at: now)
            defer { atThresholds = reached }
            guard reached, !atThresholds else { return .none }
            let totals = window.totals(at: now)
            return .thresholdsReached(calls: totals.calls, failures: totals.failures, slowCalls: totals.slowCalls)
        case .halfOpen(let admitted, let succeeded, let since):
            guard ticket.isProbe else { return .none }
            // A slow probe is a failed one, whether slow calls are counted apart or not.
            if failed || slow {
                open(at: now)
                return .notify
            }
            guard succeeded + 1 >= configuration.halfOpenProbes else {
                phase = .halfOpen(admitted: admitted, succeeded: succeeded + 1, since: since)
                return .none
            }
            close(at: now)
            return .notify
        case .open, .isolated, .disabled:
            return .none
        }
    }

    /// Whether the window at `now` holds at least `minimumThroughput` calls with a failure
    /// ratio at or above `failureRatio`, or a slow-call ratio at or above `slowCallRatio`: where
    /// a closed circuit opens.
    func reachesThresholds(at now: Duration) -> Bool {
        let totals = window.totals(at: now)
        guard totals.calls >= configuration.minimumThroughput else { return false }
        if Double(totals.failures) >= configuration.failureRatio * Double(totals.calls) { return true }
        guard let slowCallRatio = configuration.slowCallRatio else { return false }
        return Double(totals.slowCalls) >= slowCallRatio * Double(totals.calls)
    }

    /// The call of `ticket` was cancelled before its outcome: a probe gives its place back.
    mutating func release(_ ticket: CircuitTicket) {
        guard ticket.isProbe, ticket.generation == generation, case .halfOpen(let admitted, let succeeded, let since) = phase
        else {
            return
        }
        phase = .halfOpen(admitted: admitted - 1, succeeded: succeeded, since: since)
    }

    /// Opened by hand: refuse every call until `reset`.
    mutating func isolate() -> TransitionAction {
        if case .isolated = phase { return .none }
        transition(to: .isolated)
        return .notify
    }

    /// Switched off by hand: admit every call, record nothing.
    mutating func disable() -> TransitionAction {
        if case .disabled = phase { return .none }
        transition(to: .disabled)
        return .notify
    }

    /// Shadow mode by hand: admit every call, record it in an empty window, never open.
    mutating func switchToMetricsOnly() -> TransitionAction {
        if case .metricsOnly = phase { return .none }
        window.clear()
        atThresholds = false
        transition(to: .metricsOnly)
        return .notify
    }

    /// Opened by hand until `until`: the break ends then, and probes decide as usual. The
    /// openings that grow the break are not counted.
    mutating func open(until: Duration) -> TransitionAction {
        transition(to: .open(until: until))
        return .notify
    }

    /// Closed by hand, with an empty window and the break back to its first length.
    mutating func reset() -> TransitionAction {
        if case .closed = phase {
            window.clear()
            openings = 0
            return .none
        }
        close(at: nil)
        return .notify
    }

    /// The time left before a call can go through, at `now`: zero unless open.
    func timeLeft(at now: Duration) -> Duration {
        guard case .open(let until) = phase, until > now else { return .zero }
        return until - now
    }

    /// A caller offers to deliver the queued states: the first batch if nobody else delivers.
    mutating func beginDrain() -> DrainAction {
        guard !draining, !queued.isEmpty else { return .none }
        draining = true
        defer { queued.removeAll(keepingCapacity: true) }
        return .deliver(queued)
    }

    /// The delivering caller has delivered its batch: the next one, or none (it stops).
    mutating func continueDrain() -> DrainAction {
        guard !queued.isEmpty else {
            draining = false
            return .none
        }
        defer { queued.removeAll(keepingCapacity: true) }
        return .deliver(queued)
    }

    private mutating func open(at now: Duration) {
        openings += 1
        transition(to: .open(until: now + configuration.breakDuration(afterOpenings: openings)), at: now)
    }

    private mutating func close(at now: Duration?) {
        openings = 0
        window.clear()
        transition(to: .closed, at: now)
    }

    private mutating func transition(to next: Phase, at now: Duration? = nil) {
        changedAt = now
        phase = next
        generation &+= 1
        queued.append(state)
    }
}
