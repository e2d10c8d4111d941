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

    /// A subscription arrived: the hooks to run and the downstream to hand it to (nil: cancel it).
    @inlinable
    mutating func subscription(_ subscription: any Subscription) -> (hooks: Hooks?, downstream: Downstream?) {
        guard case .awaitingSubscription = phase, let downstream else { return (hooks, nil) }
        phase = .subscribed(subscription)
        return (hooks, downstream)
    }

    /// A value arrived: the hooks to run and the downstream to forward it to (only while
    /// subscribed).
    @inlinable
    func value() -> (hooks: Hooks?, downstream: Downstream?) {
        guard case .subscribed = phase else { return (hooks, nil) }
        return (hooks, downstream)
    }

    /// A completion arrived: the hooks to run and the downstream to forward it to; both are
    /// let go here.
    @inlinable
    mutating func completion() -> (hooks: Hooks?, downstream: Downstream?) {
        let taken: (Hooks?, Downstream?)
        if case .subscribed = phase { taken = (hooks, downstream) } else { taken = (hooks, nil) }
        phase = .terminated
        downstream = nil
        if !keepsHooks { hooks = nil }
        return taken
    }

    /// A request: the hooks to run and the upstream to pass it to (only while subscribed).
    @inlinable
    func request() -> (hooks: Hooks?, upstream: (any Subscription)?) {
        guard case .subscribed(let upstream) = phase else { return (hooks, nil) }
        return (hooks, upstream)
    }

    /// A cancel: the hooks to run, the upstream to cancel (only while subscribed) and the
    /// downstream, handed out to be let go outside the lock.
    @inlinable
    mutating func cancel() -> (hooks: Hooks?, upstream: (any Subscription)?, released: Downstream?) {
        let hooks = self.hooks
        guard case .subscribed(let upstream) = phase else { return (hooks, nil, nil) }
        phase = .terminated
        if !keepsHooks { self.hooks = nil }
        defer { downstream = nil }
        return (hooks, upstream, downstream)
    }
}
