import Streams

/// The state of a `delaySubscription` subscription: a value with no lock and no callouts. Each
/// event updates it and returns what the subscription must do once the lock is released.
///
/// Phases:
/// - `awaitingSubscription(downstream, upstream)`: the wait, then the time between subscribing
///   to the upstream and its subscription arriving. The upstream publisher is kept until the
///   scheduled action takes it (nil afterwards); the downstream's requests add up in `demand`.
///   The upstream subscription → `subscribed`, passing on the demand.
/// - `subscribed(upstream, downstream)`: values and requests pass straight through; the
///   completion → `terminated`.
/// - `terminated`: completed or cancelled; everything has been let go and is ignored.
///
/// The scheduled action's cancellable sits beside the phase until the action has run or is
/// cancelled.
@usableFromInline
struct DelaySubscriptionStateMachine<Downstream: Subscriber, Upstream: Publisher> {
    @usableFromInline
    enum Phase {
        case awaitingSubscription(Box<Downstream>, upstream: Upstream?)
        case subscribed(upstream: any Subscription, downstream: Box<Downstream>)
        case terminated
    }

    @usableFromInline
    var phase: Phase
    /// Requested by the downstream before the upstream subscription arrived.
    @usableFromInline
    var demand = Subscribers.Demand.none
    /// The scheduled action, while it may still have to be cancelled.
    @usableFromInline
    var timer: (any Cancellable)?
    /// Whether the scheduled action has run.
    @usableFromInline
    var fired = false

    @inlinable
    init(downstream: Downstream, upstream: Upstream) {
        phase = .awaitingSubscription(Box(downstream), upstream: upstream)
    }

    @usableFromInline
    enum ArmedAction {
        /// The action has already run or the subscription has ended: cancel it.
        case cancel
        case none
    }

    /// The action was scheduled and `timer` cancels it.
    @inlinable
    mutating func armed(_ timer: any Cancellable) -> ArmedAction {
        guard case .awaitingSubscription(_, .some(_)) = phase, !fired else { return .cancel }
        self.timer = timer
        return .none
    }

    @usableFromInline
    enum FireAction {
        /// Subscribe to this upstream, after cancelling the (repeating) scheduled action.
        case subscribe(Upstream, cancelling: (any Cancellable)?)
        /// Only cancel the scheduled action.
        case cancel((any Cancellable)?)
    }

    /// The scheduled action runs.
    @inlinable
    mutating func fire() -> FireAction {
        let timer = self.timer
        self.timer = nil
        guard case .awaitingSubscription(let downstream, .some(let upstream)) = phase else { return .cancel(timer) }
        fired = true
        phase = .awaitingSubscription(downstream, upstream: nil)
        return .subscribe(upstream, cancelling: timer)
    }

    @usableFromInline
    enum SubscriptionAction {
        /// Hand the downstream nothing (it already has the subscription); ask the upstream for
        /// this demand if it is not `.none`.
        case request(any Subscription, Subscribers.Demand)
        /// A second subscription, or one after the end: cancel it.
        case cancel
    }

    @inlinable
    mutating func receiveSubscription(_ subscription: any Subscription) -> SubscriptionAction {
        guard case .awaitingSubscription(let downstream, .none) = phase, fired else { return .cancel }
        phase = .subscribed(upstream: subscription, downstream: downstream)
        let pending = demand
        demand = .none
        return .request(subscription, pending)
    }

    /// A value arrived: the downstream to deliver it to, while subscribed.
    @inlinable
    func receiveValue() -> Box<Downstream>? {
        guard case .subscribed(_, let downstream) = phase else { return nil }
        return downstream
    }

    /// The completion arrived: the downstream to complete, while subscribed.
    @inlinable
    mutating func receiveCompletion() -> Box<Downstream>? {
        guard case .subscribed(_, let downstream) = phase else { return nil }
        phase = .terminated
        return downstream
    }

    @usableFromInline
    enum RequestAction {
        case forward(any Subscription)
        case none
    }

    @inlinable
    mutating func request(_ additional: Subscribers.Demand) -> RequestAction {
        switch phase {
        case .awaitingSubscription:
            demand += additional
            return .none
        case .subscribed(let upstream, _):
            return .forward(upstream)
        case .terminated:
            return .none
        }
    }

    @usableFromInline
    enum CancelAction {
        /// Cancel the scheduled action (during the wait) or the upstream; what the machine held
        /// is let go of outside the lock.
        case cancel(timer: (any Cancellable)?, upstream: (any Subscription)?, released: Phase)
        case none
    }

    @inlinable
    mutating func cancel() -> CancelAction {
        let released = phase
        let action: CancelAction
        switch phase {
        case .awaitingSubscription:
            action = .cancel(timer: timer, upstream: nil, released: released)
        case .subscribed(let upstream, _):
            action = .cancel(timer: nil, upstream: upstream, released: released)
        case .terminated:
            return .none
        }
        phase = .terminated
        timer = nil
        return action
    }
}
