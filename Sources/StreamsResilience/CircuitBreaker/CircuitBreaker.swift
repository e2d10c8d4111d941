import Streams

/// A circuit breaker that many pipelines share: when too many calls to a dependency fail, it
/// opens and refuses calls for a while, so that a failing service gets room to recover instead
/// of a flood of doomed requests, and callers fail fast instead of waiting on timeouts.
///
/// - **Closed**, calls go through and their outcomes are sampled over a window (the last
///   30 seconds, or the last N calls). When at least `minimumThroughput` calls are in the window
///   and the share that failed reaches `failureRatio`, the circuit opens.
/// - **Open**, calls fail at once with ``CircuitOpenError``, whose `Retry-After` hint is the
///   time left, for `breakDuration` (growing with each failed probe if you ask for it).
/// - **Half-open**, once the break is over, the next `halfOpenProbes` calls go through as
///   probes: if they all succeed the circuit closes, at the first failure it opens again. Other
///   calls meanwhile fail fast.
/// - **Isolated**, opened by hand with ``isolate()``, until ``reset()``.
/// - **Disabled** (``disable()``) and **metrics only** (``switchToMetricsOnly()``), by hand:
///   every call goes through; metrics only records the outcomes and tells when the circuit would
///   have opened (shadow mode, to tune thresholds). ``open(for:at:)`` opens it for a break of
///   your choosing.
///
/// The break ends when the next call arrives: ``currentState`` stays `.open` until then.
/// The defaults are Polly v8's (see ``Configuration``). Time is read from the scheduler of each
/// pipeline that uses the breaker; share one breaker only between pipelines whose schedulers are
/// of one kind. Every method is thread-safe; the state is kept behind one lock, and observers
/// are called outside it, one transition at a time, in order.
///
/// ```swift
/// let breaker = CircuitBreaker()   // share one per backend
/// let user = api.user(id)
///     .circuitBreaker(breaker, scheduler: DispatchQueue.main)
///     .retry(3, backoff: .exponential(), scheduler: DispatchQueue.main)
/// ```
public final class CircuitBreaker: Sendable {
    /// When the breaker opens, for how long, and how it closes again.
    public let configuration: Configuration
    /// Told each change of state, each refusal and each outcome recorded.
    public let events: ResilienceEvents

    let state: LockedState<CircuitBreakerStateMachine>
    private let subject: CurrentValueSubject<CircuitState, Never>

    /// Makes a closed breaker that tells `events` its changes of state and its refusals. A value
    /// of `configuration` out of range stops the program.
    ///
    /// ```swift
    /// let breaker = CircuitBreaker(.init(failureRatio: 0.5, window: .count(20), minimumThroughput: 10))
    /// ```
    public init(_ configuration: Configuration = Configuration(), events: ResilienceEvents = .none) {
        configuration.validate()
        self.configuration = configuration
        self.events = events
        state = LockedState(CircuitBreakerStateMachine(configuration: configuration))
        subject = CurrentValueSubject(.closed)
    }

    /// The state now. An open circuit whose break is over reads `.open` until the next call
    /// arrives and becomes its probe.
    ///
    /// ```swift
    /// if breaker.currentState == .open { showOfflineBanner() }
    /// ```
    public var currentState: CircuitState {
        state.withLock { $0.state }
    }

    /// The state, since when, and the calls and failures in the window at `now` (the window of
    /// a time-based breaker slides to `now`).
    ///
    /// ```swift
    /// let metrics = breaker.metrics(at: DispatchQueue.main.now)
    /// print(metrics.state, metrics.calls, metrics.failureRate)
    /// ```
    public func metrics<Instant: TimelineInstant>(at now: Instant) -> CircuitBreakerMetrics {
        let offset = now.timelineOffset
        return state.withLock { machine in
            let totals = machine.window.totals(at: offset)
            return CircuitBreakerMetrics(
                state: machine.state, since: machine.changedAt, calls: totals.calls, failures: totals.failures,
                slowCalls: totals.slowCalls)
        }
    }

    /// The state, then every change of it, in order. Observers are called outside the breaker's
    /// lock, on the thread that made the change.
    ///
    /// ```swift
    /// let logging = breaker.statePublisher.sink { log("circuit is \($0)") }
    /// ```
    public var statePublisher: AnyPublisher<CircuitState, Never> {
        subject.eraseToAnyPublisher()
    }

    /// Opens the circuit by hand, until ``reset()``: every call fails fast with a
    /// ``CircuitOpenError`` that is not retryable.
    ///
    /// ```swift
    /// breaker.isolate()   // maintenance: stop calling the backend
    /// ```
    public func isolate() {
        if case .notify = state.withLock({ $0.isolate() }) { deliverStates() }
    }

    /// Switches the breaker off by hand, until ``reset()``: every call goes through, no outcome is
    /// recorded and the circuit never opens (resilience4j's `DISABLED`). For an incident where
    /// the breaker itself is in the way.
    ///
    /// ```swift
    /// breaker.disable()   // pass-through
    /// ```
    public func disable() {
        if case .notify = state.withLock({ $0.disable() }) { deliverStates() }
    }

    /// Switches the breaker to shadow mode, until ``reset()``: every call goes through and its
    /// outcome is recorded in a fresh window as when closed, but the circuit never opens; when
    /// the window reaches the thresholds at which a closed circuit opens, `events` is told
    /// ``ResilienceEvent/circuitWouldOpen(calls:failures:slowCalls:)`` (once per crossing). For tuning
    /// thresholds on live traffic (resilience4j's `METRICS_ONLY`).
    ///
    /// ```swift
    /// breaker.switchToMetricsOnly()
    /// ```
    public func switchToMetricsOnly() {
        if case .notify = state.withLock({ $0.switchToMetricsOnly() }) { deliverStates() }
    }

    /// Opens the circuit by hand for `duration` from `now` (on the time line of the pipelines'
    /// scheduler): calls fail fast with the time left as their hint, then probes decide as after
    /// any break (resilience4j's `transitionToOpenStateFor`). From any state.
    ///
    /// ```swift
    /// breaker.open(for: .seconds(30), at: DispatchQueue.main.now)   // a deploy is under way
    /// ```
    public func open<Instant: TimelineInstant>(for duration: Duration, at now: Instant) {
        precondition(duration >= .zero, "CircuitBreaker.open(for:at:) requires a duration of zero or more, got \(duration)")
        if case .notify = state.withLock({ $0.open(until: now.timelineOffset + duration) }) { deliverStates() }
    }

    /// Opens the circuit by hand until `instant` (on the time line of the pipelines'
    /// scheduler), as ``open(for:at:)`` does (resilience4j's `transitionToOpenStateUntil`).
    ///
    /// ```swift
    /// breaker.open(until: DispatchQueue.main.now.advanced(by: .seconds(30)))
    /// ```
    public func open<Instant: TimelineInstant>(until instant: Instant) {
        if case .notify = state.withLock({ $0.open(until: instant.timelineOffset) }) { deliverStates() }
    }

    /// Closes the circuit by hand (from any state, disabled and metrics only included), forgetting the sampled outcomes and any growth of the break.
    ///
    /// ```swift
    /// breaker.reset()
    /// ```
    public func reset() {
        if case .notify = state.withLock({ $0.reset() }) { deliverStates() }
    }

    /// Asks to let a call through at `now`: its ticket, or the refusal.
    @usableFromInline
    func acquire(at now: Duration, during call: ResilienceEvents? = nil) -> CircuitBreakerStateMachine.AcquireAction {
        let action = state.withLock { $0.acquire(at: now) }
        switch action {
        case .permitAndNotify: deliverStates(during: call)
        case .reject(let refusal): events.emit(.circuitRejected(refusal), during: call)
        case .rejectAndNotify(let refusal):
            deliverStates(during: call)
            events.emit(.circuitRejected(refusal), during: call)
        case .permit: break
        }
        return action
    }

    /// The call of `ticket` ended at `now`; `failed`: with an error that counts. Tells the
    /// outcome as ``ResilienceEvent/circuitCallRecorded(failed:duration:)``, a slow call as
    /// failed, then any change of state.
    @usableFromInline
    func record(_ ticket: CircuitTicket, failed: Bool, at now: Duration, during call: ResilienceEvents? = nil) {
        let transition = state.withLock { $0.record(ticket, failed: failed, at: now) }
        if events.isObserved(during: call) {
            // A slow call counts as failed unless the breaker counts slow calls apart.
            let duration = now - ticket.start
            let slow = configuration.slowCallThreshold.map { duration >= $0 } ?? false
            let countedFailed = failed || (slow && configuration.slowCallRatio == nil)
            events.emit(.circuitCallRecorded(failed: countedFailed, duration: duration), during: call)
        }
        switch transition {
        case .notify: deliverStates(during: call)
        case .thresholdsReached(let calls, let failures, let slowCalls):
            events.emit(.circuitWouldOpen(calls: calls, failures: failures, slowCalls: slowCalls), during: call)
        case .none: break
        }
    }

    /// The call of `ticket` was cancelled before its outcome.
    @usableFromInline
    func release(_ ticket: CircuitTicket) {
        state.withLock { $0.release(ticket) }
    }

    /// Delivers the queued states, unless another caller is already delivering them (it will
    /// deliver these too).
    private func deliverStates(during call: ResilienceEvents? = nil) {
        var action = state.withLock { $0.beginDrain() }
        while case .deliver(let states) = action {
            for next in states {
                events.emit(.circuitStateChanged(next), during: call)
                subject.send(next)
            }
            action = state.withLock { $0.continueDrain() }
        }
    }
}
