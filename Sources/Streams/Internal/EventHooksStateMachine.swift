/// The state of the subscription behind `handleEvents` and `print`: a value with no lock and no
/// callouts. Each event updates it and returns what the subscription must call once the lock is
/// released.
///
/// Phases:
/// - `awaiting`: the upstream subscription → `subscribed`. A `cancel()` here changes nothing, so
///   a late subscription is still accepted (as in Combine).
/// - `subscribed(upstream)`: `cancel()` → `cancelled`; a completion → `completed`.
/// - `cancelled`: values and a completion the upstream still sends are forwarded (as in Combine);
///   a completion → `completed`.
/// - `completed`: the downstream is let go; nothing more is forwarded.
///
/// The hooks run for every event in every phase while they are held: `handleEvents` lets go of
/// them on completion and on a cancel while subscribed, `print` keeps its printer for good
/// (`keepsHooks`), so it logs every event whatever the phase. A subscription arriving in any
/// phase but `awaiting` is reported to the hooks, then cancelled.
@usableFromInline
struct EventHooksStateMachine<Downstream, Hooks> {
    @usableFromInline
    enum Phase {
        case awaiting
        case subscribed(any Subscription)
        case cancelled
        case completed
    }

    @usableFromInline
    var phase = Phase.awaiting
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

    /// A subscription arrived: `accepted` tells whether it is handed downstream (else cancelled).
    @inlinable
    mutating func subscription(_ subscription: any Subscription) -> (hooks: Hooks?, downstream: Downstream?) {
        guard case .awaiting = phase, let downstream else { return (hooks, nil) }
        phase = .subscribed(subscription)
        return (hooks, downstream)
    }

    /// A value arrived: the hooks to run and the downstream to forward it to (none before the
    /// subscription or after a completion).
    @inlinable
    func value() -> (hooks: Hooks?, downstream: Downstream?) {
        switch phase {
        case .subscribed, .cancelled: (hooks, downstream)
        case .awaiting, .completed: (hooks, nil)
        }
    }

    /// A completion arrived: the hooks to run and the downstream to forward it to; both are
    /// let go here.
    @inlinable
    mutating func completion() -> (hooks: Hooks?, downstream: Downstream?) {
        let taken: (Hooks?, Downstream?)
        switch phase {
        case .subscribed, .cancelled: taken = (hooks, downstream)
        case .awaiting, .completed: taken = (hooks, nil)
        }
        phase = .completed
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

    /// A cancel: the hooks to run and the upstream to cancel (only while subscribed).
    @inlinable
    mutating func cancel() -> (hooks: Hooks?, upstream: (any Subscription)?) {
        let hooks = self.hooks
        guard case .subscribed(let upstream) = phase else { return (hooks, nil) }
        phase = .cancelled
        if !keepsHooks { self.hooks = nil }
        return (hooks, upstream)
    }
}
