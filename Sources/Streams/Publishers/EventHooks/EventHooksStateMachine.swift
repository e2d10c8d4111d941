/// The state of the subscription behind `handleEvents` and `print`: a value with no lock and no
/// callouts. Each event updates it and returns what the subscription must call once the lock is
/// released.
///
/// Phases:
/// - `awaitingSubscription`: the upstream subscription → `subscribed`. A `cancel()` here changes nothing, so
///   a late subscription is still accepted (as in Combine).
/// - `subscribed(upstream)`: `cancel()` or a completion → `terminated`.
/// - `terminated`: the downstream is let go; nothing more is forwarded. (Combine keeps its
///   downstream and forwards what a still-sending upstream sends after a cancel or completion:
///   a documented difference, so that nothing is leaked.)
///
/// The hooks run for every event in every phase while they are held: `handleEvents` lets go of
/// them on completion and on a cancel while subscribed, `print` keeps its printer for good
/// (`keepsHooks`), so it logs every event whatever the phase. A subscription arriving in any
/// phase but `awaitingSubscription` is reported to the hooks, then cancelled.
@usableFromInline
struct EventHooksStateMachine<Downstream, Hooks> {
    @usableFromInline
    enum Phase {
        case awaitingSubscription
        case subscribed(any Subscription)
        case terminated
    }

    @usableFromInline
    var phase = Phase.awaitingSubscription
    @usableFromInline
    var downstream: Downstream?
    @usableFromInline
    var hooks: Hooks?
    @usableFromInline
    let keepsHooks: Bool

    @inlinable
    init(downstream: Downstream, hooks: Hooks, keepsHooks: Bool) {
        self.downstream = downstream
        self.hooks = hooks
        self.keepsHooks = keepsHooks
    }

    /// What an event hands out to do once the lock is released: the hooks to run (nil once let
    /// go), and whom to pass the event on to.
    @usableFromInline
    enum Action<Target> {
        /// Run `hooks`, if any; the event goes no further.
        case runHooks(Hooks?)
        /// Run `hooks`, if any, then pass the event on to the target.
        case forward(Hooks?, Target)
    }

    /// What a cancel hands out to do once the lock is released.
    @usableFromInline
    enum CancelAction {
        /// Run `hooks`, if any; nothing to cancel (not subscribed).
        case runHooks(Hooks?)
        /// Run `hooks`, if any, then cancel the upstream; `released` (the downstream) is let go
        /// outside the lock.
        case cancel(Hooks?, upstream: any Subscription, released: Downstream?)
    }

    /// A subscription arrived: the hooks to run and the downstream to hand it to (`.runHooks`:
    /// cancel it).
    @inlinable
    mutating func subscription(_ subscription: any Subscription) -> Action<Downstream> {
        guard case .awaitingSubscription = phase, let downstream else { return .runHooks(hooks) }
        phase = .subscribed(subscription)
        return .forward(hooks, downstream)
    }

    /// A value arrived: the hooks to run and the downstream to forward it to (only while
    /// subscribed).
    @inlinable
    func value() -> Action<Downstream> {
        guard case .subscribed = phase, let downstream else { return .runHooks(hooks) }
        return .forward(hooks, downstream)
    }

    /// A completion arrived: the hooks to run and the downstream to forward it to; both are
    /// let go here.
    @inlinable
    mutating func completion() -> Action<Downstream> {
        let taken: Action<Downstream>
        if case .subscribed = phase, let downstream { taken = .forward(hooks, downstream) } else { taken = .runHooks(hooks) }
        phase = .terminated
        downstream = nil
        if !keepsHooks { hooks = nil }
        return taken
    }

    /// A request: the hooks to run and the upstream to pass it to (only while subscribed).
    @inlinable
    func request() -> Action<any Subscription> {
        guard case .subscribed(let upstream) = phase else { return .runHooks(hooks) }
        return .forward(hooks, upstream)
    }

    /// A cancel: the hooks to run, the upstream to cancel (only while subscribed) and the
    /// downstream, handed out to be let go outside the lock.
    @inlinable
    mutating func cancel() -> CancelAction {
        let hooks = self.hooks
        guard case .subscribed(let upstream) = phase else { return .runHooks(hooks) }
        phase = .terminated
        if !keepsHooks { self.hooks = nil }
        defer { downstream = nil }
        return .cancel(hooks, upstream: upstream, released: downstream)
    }
}
