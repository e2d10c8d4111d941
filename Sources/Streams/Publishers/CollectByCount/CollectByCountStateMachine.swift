/// The state of a ``CollectByCountSubscription`` apart from its buffer (which only the
/// upstream's serial calls touch): a value with no lock and no callouts.
///
/// Phases:
/// - `awaitingSubscription`: the upstream subscription → `subscribed`. A `cancel()` here changes nothing: a
///   late subscription is still accepted (and asked for nothing until the downstream asks).
/// - `subscribed(upstream)`: `cancel()` or a completion → `terminated`.
/// - `terminated`: the downstream is let go; nothing more is forwarded. (Combine keeps its
///   downstream and forwards every completion, also after a cancel or a completion: a
///   documented difference, so that nothing is leaked.)
@usableFromInline
struct CollectByCountStateMachine<Downstream> {
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

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
    }

    /// The downstream to hand the subscription to, or nil (cancel it).
    @inlinable
    mutating func subscription(_ subscription: any Subscription) -> Downstream? {
        guard case .awaitingSubscription = phase else { return nil }
        phase = .subscribed(subscription)
        return downstream
    }

    /// The downstream to deliver a full buffer to, or nil (drop it).
    @inlinable
    func value() -> Downstream? {
        guard case .subscribed = phase else { return nil }
        return downstream
    }

    /// What to do with a completion from upstream.
    @usableFromInline
    enum CompletionAction {
        /// Forward the completion (after what is left in the buffer) to the downstream.
        case forward(Downstream)
        /// Not subscribed: only let go of `released` (the downstream, if still held) outside the
        /// lock.
        case release(Downstream?)
    }

    /// The downstream to forward the completion to (let go here), or the one to let go of. As in
    /// Combine, no subscription is accepted after a completion, also one that came before any
    /// subscription.
    @inlinable
    mutating func completion() -> CompletionAction {
        let subscribed = if case .subscribed = phase { true } else { false }
        phase = .terminated
        defer { downstream = nil }
        if subscribed, let downstream { return .forward(downstream) }
        return .release(downstream)
    }

    /// The upstream to pass a request to, or nil.
    @inlinable
    func request() -> (any Subscription)? {
        guard case .subscribed(let upstream) = phase else { return nil }
        return upstream
    }

    /// What a cancel does once the lock is released.
    @usableFromInline
    enum CancelAction {
        /// Not subscribed: nothing.
        case none
        /// Cancel `upstream`; `released` (the downstream) is let go outside the lock.
        case cancel(any Subscription, released: Downstream?)
    }

    /// The upstream to cancel, if subscribed; the downstream is handed out to be let go outside
    /// the lock.
    @inlinable
    mutating func cancel() -> CancelAction {
        guard case .subscribed(let upstream) = phase else { return .none }
        phase = .terminated
        defer { downstream = nil }
        return .cancel(upstream, released: downstream)
    }
}
