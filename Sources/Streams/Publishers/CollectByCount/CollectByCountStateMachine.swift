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

    /// The downstream to forward the completion to (let go here), or nil. As in Combine, no
    /// subscription is accepted after a completion, also one that came before any subscription.
    @inlinable
    mutating func completion() -> (forward: Downstream?, released: Downstream?) {
        let subscribed = if case .subscribed = phase { true } else { false }
        phase = .terminated
        defer { downstream = nil }
        return subscribed ? (downstream, nil) : (nil, downstream)
    }

    /// The upstream to pass a request to, or nil.
    @inlinable
    func request() -> (any Subscription)? {
        guard case .subscribed(let upstream) = phase else { return nil }
        return upstream
    }

    /// The upstream to cancel, or nil; the downstream is handed out to be let go outside the lock.
    @inlinable
    mutating func cancel() -> (upstream: (any Subscription)?, released: Downstream?) {
        guard case .subscribed(let upstream) = phase else { return (nil, nil) }
        phase = .terminated
        defer { downstream = nil }
        return (upstream, downstream)
    }
}
