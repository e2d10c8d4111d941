import Streams

/// The state of a `dematerialize()` subscription: a value with no lock and no callouts. Each
/// event updates it and returns what the subscription must do once the lock is released.
///
/// Phases:
/// - `awaitingSubscription(downstream)`: the upstream's subscription → `subscribed`; a
///   `cancel()` → `terminated` (a subscription arriving later is cancelled).
/// - `subscribed(downstream, upstream)`: `.value` events go downstream; a `.finished` or
///   `.failure` event, the upstream's completion or a `cancel()` → `terminated`.
/// - `terminated`: completed or cancelled; the downstream has been let go, everything is ignored.
@usableFromInline
struct DematerializeStateMachine<Downstream: Subscriber> {
    @usableFromInline
    enum Phase {
        case awaitingSubscription(Box<Downstream>)
        case subscribed(Box<Downstream>, upstream: any Subscription)
        case terminated
    }

    @usableFromInline
    var phase: Phase

    @inlinable
    init(downstream: Downstream) {
        phase = .awaitingSubscription(Box(downstream))
    }

    @usableFromInline
    enum ReceiveSubscriptionAction {
        /// Hand the subscription to this downstream.
        case attach(Box<Downstream>)
        /// A second subscription, or one after the end: cancel it.
        case cancel
    }

    @inlinable
    mutating func receiveSubscription(_ upstream: any Subscription) -> ReceiveSubscriptionAction {
        guard case .awaitingSubscription(let downstream) = phase else { return .cancel }
        phase = .subscribed(downstream, upstream: upstream)
        return .attach(downstream)
    }

    @usableFromInline
    enum ReceiveValueAction {
        /// Send the event's value to this downstream.
        case deliver(Box<Downstream>)
        case none
    }

    /// A `.value` event.
    @inlinable
    func receiveValueEvent() -> ReceiveValueAction {
        guard case .subscribed(let downstream, _) = phase else { return .none }
        return .deliver(downstream)
    }

    @usableFromInline
    enum ReceiveEndEventAction {
        /// Cancel the upstream, then complete this downstream as the event says.
        case complete(Box<Downstream>, cancelling: any Subscription)
        case none
    }

    /// A `.finished` or `.failure` event.
    @inlinable
    mutating func receiveEndEvent() -> ReceiveEndEventAction {
        guard case .subscribed(let downstream, let upstream) = phase else { return .none }
        phase = .terminated
        return .complete(downstream, cancelling: upstream)
    }

    @usableFromInline
    enum ReceiveCompletionAction {
        /// Send `.finished` to this downstream.
        case finish(Box<Downstream>)
        case none
    }

    /// The upstream finished (it cannot fail).
    @inlinable
    mutating func receiveCompletion() -> ReceiveCompletionAction {
        guard case .subscribed(let downstream, _) = phase else { return .none }
        phase = .terminated
        return .finish(downstream)
    }

    @usableFromInline
    enum RequestAction {
        /// Ask the upstream for the demand.
        case forward(any Subscription)
        case none
    }

    @inlinable
    func request() -> RequestAction {
        guard case .subscribed(_, let upstream) = phase else { return .none }
        return .forward(upstream)
    }

    @usableFromInline
    enum CancelAction {
        /// Cancel the upstream; the downstream is let go of outside the lock.
        case cancel(any Subscription, released: Box<Downstream>)
        /// Nothing to cancel; what was held is let go of outside the lock.
        case release(Phase)
    }

    @inlinable
    mutating func cancel() -> CancelAction {
        let previous = phase
        phase = .terminated
        if case .subscribed(let downstream, let upstream) = previous {
            return .cancel(upstream, released: downstream)
        }
        return .release(previous)
    }
}
