/// The state of a `timeout` subscription: a value with no lock and no callouts. Each event
/// updates it and returns what the subscription must do once the lock is released.
///
/// Phases:
/// - `awaitingSubscription`: the upstream subscription → `subscribed` (the wait is armed); `cancel` is a
///   no-op, as in Combine, so a subscription arriving later is still accepted.
/// - `subscribed`: the downstream's first request and every value re-arm the wait; the upstream's
///   completion → `completing`; the wait running out or `cancel` → `terminated`.
/// - `completing`: the completion is on its way through the scheduler, behind the values already
///   scheduled; its delivery → `terminated`. Until then the subscription is not over, as in
///   Combine: `cancel` still cancels the upstream's subscription (although the upstream has
///   completed) → `terminated`, and the completion is then never delivered.
/// - `terminated`: everything has been let go.
///
/// Each arming gets a new number (`wait`): a timer that reports for a wait that was replaced, or
/// that arrives after the wait was replaced again, is recognised as stale.
///
/// The machine is not generic: it keeps the downstream's box as an `AnyObject`, which the
/// subscription casts back. The subscription's `request` and `cancel` are called through
/// `any Subscription`, in unspecialised code, where a generic machine (and the lock around it)
/// cost a metadata lookup at every use (Docs/Performance.md, "Why the code is shaped this way",
/// has the count).
@usableFromInline
struct TimeoutStateMachine {
    @usableFromInline
    struct Subscribed {
        @usableFromInline
        let downstream: AnyObject
        @usableFromInline
        let upstream: any Subscription
        /// The number of the current wait.
        @usableFromInline
        var wait: Int
        /// The timer of the current wait, once armed.
        @usableFromInline
        var timer: (any Cancellable)?
        /// The downstream has made its first request.
        @usableFromInline
        var requested: Bool

        @inlinable
        init(downstream: AnyObject, upstream: any Subscription) {
            self.downstream = downstream
            self.upstream = upstream
            wait = 1
            requested = false
        }
    }

    @usableFromInline
    enum Phase {
        case awaitingSubscription(AnyObject)
        case subscribed(Subscribed)
        case completing(AnyObject, upstream: any Subscription)
        case terminated
    }

    @usableFromInline
    var phase: Phase

    /// Waits for the upstream's subscription, for the downstream in `downstream` (a `Box`).
    @inlinable
    init(downstream: AnyObject) {
        phase = .awaitingSubscription(downstream)
    }

    /// What the subscription does with an upstream subscription.
    @usableFromInline
    enum SubscriptionAction {
        /// Arm wait number 1, then hand the subscription downstream.
        case arm(AnyObject)
        /// A second subscription: cancel it.
        case cancel
    }

    @inlinable
    mutating func receiveSubscription(_ upstream: any Subscription) -> SubscriptionAction {
        guard case .awaitingSubscription(let downstream) = phase else { return .cancel }
        phase = .subscribed(Subscribed(downstream: downstream, upstream: upstream))
        return .arm(downstream)
    }

    /// The timer of wait `wait` was made: the timer to cancel, the replaced one or, when the wait
    /// is stale or over, the new one.
    @inlinable
    mutating func armed(_ wait: Int, timer: any Cancellable) -> (any Cancellable)? {
        if case .awaitingSubscription = phase {
            preconditionFailure("TimeoutStateMachine: internal inconsistency: armed before subscribed")
        }
        guard case .subscribed(var state) = phase, state.wait == wait else { return timer }
        let replaced = state.timer
        state.timer = timer
        phase = .subscribed(state)
        return replaced
    }

    /// What a downstream request does.
    @usableFromInline
    enum RequestAction {
        /// Not subscribed: nothing.
        case none
        /// Forward the demand to `upstream`.
        case forward(any Subscription)
        /// The first request: arm wait `wait`, then forward the demand to `upstream`.
        case armAndForward(wait: Int, any Subscription)
    }

    /// A request: the wait to arm (on the first request only) and the upstream to forward to.
    @inlinable
    mutating func request() -> RequestAction {
        guard case .subscribed(var state) = phase else { return .none }
        guard !state.requested else { return .forward(state.upstream) }
        state.requested = true
        state.wait += 1
        phase = .subscribed(state)
        return .armAndForward(wait: state.wait, state.upstream)
    }

    /// A value: the wait to arm, or nil when the value is ignored.
    @inlinable
    mutating func receiveValue() -> Int? {
        guard case .subscribed(var state) = phase else { return nil }
        state.wait += 1
        phase = .subscribed(state)
        return state.wait
    }

    /// A scheduled value is due: the downstream to deliver it to, if it is still there.
    @inlinable
    func deliverValue() -> AnyObject? {
        switch phase {
        case .subscribed(let state): state.downstream
        case .completing(let downstream, _): downstream
        case .awaitingSubscription, .terminated: nil
        }
    }

    /// The downstream returned more demand after a delivered value: the upstream to ask, unless
    /// the stream ended meanwhile.
    @inlinable
    func demandAfterDelivery() -> (any Subscription)? {
        guard case .subscribed(let state) = phase else { return nil }
        return state.upstream
    }

    /// What to do with a completion from upstream.
    @usableFromInline
    enum CompletionAction {
        /// Not subscribed: the completion is ignored.
        case ignore
        /// Cancel `timer`, if any, and schedule the completion.
        case schedule(cancelling: (any Cancellable)?)
    }

    /// The upstream completed: the timer to cancel, or `.ignore` when the completion is ignored.
    @inlinable
    mutating func receiveCompletion() -> CompletionAction {
        guard case .subscribed(let state) = phase else { return .ignore }
        phase = .completing(state.downstream, upstream: state.upstream)
        return .schedule(cancelling: state.timer)
    }

    /// The scheduled completion is due: the downstream to send it to.
    @inlinable
    mutating func deliverCompletion() -> AnyObject? {
        guard case .completing(let downstream, _) = phase else { return nil }
        phase = .terminated
        return downstream
    }

    /// What to do when a wait runs out.
    @usableFromInline
    enum TimeoutAction {
        /// The wait was replaced, or the stream is over: nothing.
        case none
        /// Cancel `timer`, if any, and `upstream`, then end `downstream`'s stream.
        case end(timer: (any Cancellable)?, upstream: any Subscription, downstream: AnyObject)
    }

    /// Wait `wait` ran out: what to cancel and whom to tell, unless the wait was replaced.
    @inlinable
    mutating func timedOut(_ wait: Int) -> TimeoutAction {
        guard case .subscribed(let state) = phase, state.wait == wait else { return .none }
        phase = .terminated
        return .end(timer: state.timer, upstream: state.upstream, downstream: state.downstream)
    }

    /// What a cancel does once the lock is released.
    @usableFromInline
    enum CancelAction {
        /// Before the upstream subscription, or already terminated: nothing.
        case none
        /// Cancel `timer`, if any, and `upstream`; `released` (the downstream) is let go outside
        /// the lock.
        case cancel(timer: (any Cancellable)?, upstream: any Subscription, released: AnyObject)
    }

    /// The downstream cancelled: what to cancel and release outside the lock. Before the upstream
    /// subscription it changes nothing; while the completion is scheduled it cancels the upstream.
    @inlinable
    mutating func cancel() -> CancelAction {
        switch phase {
        case .awaitingSubscription:
            return .none
        case .subscribed(let state):
            phase = .terminated
            return .cancel(timer: state.timer, upstream: state.upstream, released: state.downstream)
        case .completing(let downstream, let upstream):
            phase = .terminated
            return .cancel(timer: nil, upstream: upstream, released: downstream)
        case .terminated:
            return .none
        }
    }
}
