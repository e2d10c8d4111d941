import Streams

/// The state of a `materialize()` subscription: a value with no lock and no callouts. Each event
/// updates it and returns what the subscription must do once the lock is released.
///
/// Phases:
/// - `awaitingSubscription(downstream)`: the upstream's subscription → `subscribed`; a
///   `cancel()` → `terminated` (a subscription arriving later is cancelled).
/// - `subscribed(downstream, upstream)`: values go downstream, each using one unit of demand; the
///   upstream's completion → `terminated` when the downstream has demand for the last event (it
///   is sent at once), else `completing`; a `cancel()` → `terminated`.
/// - `completing(downstream, last)`: the upstream has ended; the last event waits for a request,
///   which sends it (→ `terminated`); a `cancel()` drops it (→ `terminated`).
/// - `terminated`: completed or cancelled; the downstream has been let go, everything is ignored.
///
/// The downstream's outstanding demand sits beside the phase: it changes on every value.
@usableFromInline
struct MaterializeStateMachine<Downstream: Subscriber> {
    @usableFromInline
    typealias Last = Downstream.Input

    @usableFromInline
    enum Phase {
        case awaitingSubscription(Box<Downstream>)
        case subscribed(Box<Downstream>, upstream: any Subscription)
        case completing(Box<Downstream>, last: Last)
        case terminated
    }

    @usableFromInline
    var phase: Phase
    /// What the downstream asked for and was not sent yet.
    @usableFromInline
    var demand = Subscribers.Demand.none

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
        /// Send the value to this downstream.
        case deliver(Box<Downstream>)
        /// Before the subscription or after the end: ignore the value.
        case none
    }

    @inlinable
    mutating func receiveValue() -> ReceiveValueAction {
        guard case .subscribed(let downstream, _) = phase else { return .none }
        // An upstream sending more than it was asked for is not trusted with a negative count.
        if demand > 0 { demand -= 1 }
        return .deliver(downstream)
    }

    @usableFromInline
    enum DeliverLastAction {
        /// Send the last event to this downstream, then `.finished`.
        case deliverLast(Box<Downstream>, Last)
        case none
    }

    /// The downstream returned `additional` from a value.
    @inlinable
    mutating func valueDelivered(returning additional: Subscribers.Demand) -> DeliverLastAction {
        demand += additional
        guard case .completing(let downstream, let last) = phase, demand > 0 else { return .none }
        phase = .terminated
        return .deliverLast(downstream, last)
    }

    /// The upstream completed; `last` is the event that stands for its completion.
    @inlinable
    mutating func receiveCompletion(last: Last) -> DeliverLastAction {
        guard case .subscribed(let downstream, _) = phase else { return .none }
        guard demand > 0 else {
            phase = .completing(downstream, last: last)
            return .none
        }
        phase = .terminated
        return .deliverLast(downstream, last)
    }

    @usableFromInline
    enum RequestAction {
        /// Ask the upstream for the demand.
        case forward(any Subscription)
        /// Send the last event to this downstream, then `.finished`.
        case deliverLast(Box<Downstream>, Last)
        case none
    }

    @inlinable
    mutating func request(_ additional: Subscribers.Demand) -> RequestAction {
        guard additional > 0 else { return .none }
        switch phase {
        case .subscribed(_, let upstream):
            demand += additional
            return .forward(upstream)
        case .completing(let downstream, let last):
            phase = .terminated
            return .deliverLast(downstream, last)
        case .awaitingSubscription, .terminated:
            return .none
        }
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
