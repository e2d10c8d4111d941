/// The state of a ``DropFirstSubscription``: a value with no lock and no callouts. Each event
/// updates it and says what the subscription must do once the lock is released.
///
/// Phases (see "Zero demand and subscriptions before the upstream's" in
/// Docs/MigratingFromCombine.md):
/// - `awaitingSubscription(pending)`: the downstream already holds the subscription; its requests
///   add up in `pending`. The upstream subscription → `subscribed`, asking it for `pending`
///   plus the values still to drop. A `cancel()` here changes nothing (Combine's rule: the late
///   subscription is still accepted).
/// - `subscribed(upstream)`: requests go straight upstream.
/// - `terminated`: completed or cancelled; everything is ignored and the downstream let go.
///
/// `remaining` counts the values still to drop, also before the upstream subscription: the
/// downstream has its subscription by then, so such a value is legal and counted.
@usableFromInline
struct DropFirstStateMachine<Downstream> {
    @usableFromInline
    enum Phase {
        case awaitingSubscription(pending: Subscribers.Demand)
        case subscribed(upstream: any Subscription)
        case terminated
    }

    @usableFromInline
    var phase = Phase.awaitingSubscription(pending: .none)
    @usableFromInline
    var remaining: Int
    /// Let go of when the stage ends.
    @usableFromInline
    var downstream: Downstream?

    @inlinable
    init(count: Int, downstream: Downstream) {
        remaining = count
        self.downstream = downstream
    }

    /// What to do with a subscription from upstream.
    @usableFromInline
    enum SubscriptionAction {
        /// Keep it, and ask it for this demand (`.none`: ask nothing).
        case request(Subscribers.Demand)
        /// A second subscription, or one after the end: cancel it.
        case cancel
    }

    @inlinable
    mutating func receiveSubscription(_ subscription: any Subscription) -> SubscriptionAction {
        guard case .awaitingSubscription(let pending) = phase else { return .cancel }
        precondition(remaining >= 0, "count must not be negative")
        phase = .subscribed(upstream: subscription)
        return .request(pending + remaining)
    }

    /// What to do with a value from upstream.
    @usableFromInline
    enum ValueAction {
        case forward
        /// Dropped: the upstream was asked for it in advance, so nothing is asked in return.
        case drop
        case ignore
    }

    @inlinable
    mutating func receiveValue() -> ValueAction {
        if case .terminated = phase { return .ignore }
        guard remaining == 0 else {
            remaining -= 1
            return .drop
        }
        return .forward
    }

    /// A completion: whether to forward it (not once terminated); then everything ends.
    @inlinable
    mutating func receiveCompletion() -> Bool {
        if case .terminated = phase { return false }
        phase = .terminated
        return true
    }

    /// A downstream request: the subscription to forward it to, if subscribed; accumulated while
    /// the upstream subscription is awaited.
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> (any Subscription)? {
        switch phase {
        case .awaitingSubscription(let pending):
            phase = .awaitingSubscription(pending: pending + demand)
            return nil
        case .subscribed(let upstream):
            return upstream
        case .terminated:
            return nil
        }
    }

    /// What a downstream cancel does once the lock is released.
    @usableFromInline
    enum CancelAction {
        /// Before the upstream subscription (which does not end the stage), or already
        /// terminated: nothing.
        case none
        /// The stage ends: cancel `upstream`, then let go of `released` (the downstream).
        case cancel(any Subscription, released: Downstream?)
    }

    /// A downstream cancel: the subscription to cancel, if subscribed, and the downstream to let
    /// go of (a cancel before the upstream subscription does not end the stage).
    @inlinable
    mutating func cancel() -> CancelAction {
        switch phase {
        case .awaitingSubscription, .terminated:
            return .none
        case .subscribed(let upstream):
            phase = .terminated
            defer { downstream = nil }
            return .cancel(upstream, released: downstream)
        }
    }
}
