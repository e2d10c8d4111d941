/// The state of `drop(untilOutputFrom:)`'s subscription: a value with no lock and no callouts.
/// Each event updates it and returns what the subscription must do once the lock is released.
///
/// Phases, and the events that move between them (the downstream has the subscription from the
/// start; the upstream's and the trigger's subscriptions arrive in any phase before `terminated`):
/// - `dropping`: the trigger's first value → `passing` (the trigger is cancelled); the trigger
///   completing → `terminated` (its completion goes downstream, the upstream is cancelled); the
///   upstream completing → `terminated`.
/// - `passing`: the upstream completing → `terminated`; the trigger's completion is ignored.
///
/// `cancel()` leads from both to `terminated`. Downstream demand is counted: a value passed on
/// takes one unit; a value dropped takes none and asks the upstream for a replacement, so that
/// the downstream is never starved (Combine lets dropped values use the demand up). A value that
/// arrives with no demand outstanding traps, as in Combine.
@usableFromInline
struct DropUntilOutputStateMachine<Resources> {
    @usableFromInline
    enum Phase {
        /// The trigger has not sent a value; `upstream` and `trigger` once subscribed.
        case dropping(upstream: (any Subscription)?, trigger: (any Subscription)?)
        /// The trigger sent its value; `upstream` once subscribed.
        case passing(upstream: (any Subscription)?)
        /// Completed or cancelled: everything is let go, later events are ignored.
        case terminated
    }

    @usableFromInline
    var phase = Phase.dropping(upstream: nil, trigger: nil)
    /// Requested by the downstream and not yet used up.
    @usableFromInline
    var demand = Subscribers.Demand.none
    /// The downstream; nil once terminal.
    @usableFromInline
    var resources: Resources?

    @inlinable
    init(resources: Resources) {
        self.resources = resources
    }

    /// The upstream's subscription arrived: the demand to ask it for, or nil to cancel it.
    @inlinable
    mutating func upstreamSubscribed(_ subscription: any Subscription) -> Subscribers.Demand? {
        switch phase {
        case .dropping(nil, let trigger):
            phase = .dropping(upstream: subscription, trigger: trigger)
        case .passing(nil):
            phase = .passing(upstream: subscription)
        case .dropping, .passing, .terminated:
            return nil
        }
        return demand
    }

    /// The trigger's subscription arrived: whether to keep it (and ask it for one value).
    @inlinable
    mutating func triggerSubscribed(_ subscription: any Subscription) -> Bool {
        guard case .dropping(let upstream, nil) = phase else { return false }
        phase = .dropping(upstream: upstream, trigger: subscription)
        return true
    }

    /// What to do with an upstream value once the lock is released.
    @usableFromInline
    enum ValueAction {
        /// Ignore it: terminal.
        case ignore
        /// Drop it and ask for a replacement.
        case drop
        case deliver(Resources)
    }

    /// An upstream value arrived.
    @inlinable
    mutating func upstreamValue() -> ValueAction {
        guard let resources else { return .ignore }
        precondition(demand > 0, "DropUntilOutput received a value without demand")
        guard case .passing = phase else { return .drop }
        if demand != .unlimited { demand -= 1 }
        return .deliver(resources)
    }

    /// The downstream returned `additional` for a value.
    @inlinable
    mutating func valueDelivered(returning additional: Subscribers.Demand) {
        demand += additional
    }

    /// The trigger sent a value: the trigger's subscription to cancel. Ignored unless it is the
    /// first value of a subscribed trigger.
    @inlinable
    mutating func triggerValue() -> SubscriptionStatus {
        guard case .dropping(let upstream, .some(let trigger)) = phase else { return .terminated }
        phase = .passing(upstream: upstream)
        return .subscribed(trigger)
    }

    /// What to do with a completion once the lock is released.
    @usableFromInline
    enum CompletionAction {
        case none
        /// Cancel `cancelling` (the other side), then send the completion downstream.
        case complete(Resources, cancelling: SubscriptionStatus)
    }

    /// The trigger completed: before its value this ends the output.
    @inlinable
    mutating func triggerCompleted() -> CompletionAction {
        guard case .dropping(let upstream, _) = phase, let resources = terminate() else { return .none }
        return .complete(resources, cancelling: upstream.map(SubscriptionStatus.subscribed) ?? .terminated)
    }

    /// The upstream completed.
    @inlinable
    mutating func upstreamCompleted() -> CompletionAction {
        let trigger: SubscriptionStatus
        switch phase {
        case .dropping(_, .some(let subscription)): trigger = .subscribed(subscription)
        case .dropping, .passing: trigger = .terminated
        case .terminated: return .none
        }
        guard let resources = terminate() else { return .none }
        return .complete(resources, cancelling: trigger)
    }

    /// The downstream requested `demand` (`.none` is allowed): the upstream subscription to
    /// forward it to, if it has arrived.
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> SubscriptionStatus {
        switch phase {
        case .dropping(.some(let upstream), _), .passing(.some(let upstream)):
            self.demand += demand
            return .subscribed(upstream)
        case .dropping, .passing:
            self.demand += demand
            return .terminated
        case .terminated:
            return .terminated
        }
    }

    /// What a cancel does once the lock is released.
    @usableFromInline
    enum CancelAction {
        /// Already terminated: nothing.
        case none
        /// Cancel `upstream` and `trigger`, if they arrived; `released` (the resources) is let go
        /// outside the lock.
        case cancel(upstream: (any Subscription)?, trigger: (any Subscription)?, released: Resources?)
    }

    /// The downstream cancelled: the subscriptions to cancel and the resources to let go of
    /// outside the lock.
    @inlinable
    mutating func cancel() -> CancelAction {
        switch phase {
        case .dropping(let upstream, let trigger):
            return .cancel(upstream: upstream, trigger: trigger, released: terminate())
        case .passing(let upstream):
            return .cancel(upstream: upstream, trigger: nil, released: terminate())
        case .terminated:
            return .none
        }
    }

    /// Marks the machine terminal and lets go of the resources, returned to be used or released
    /// outside the lock.
    @inlinable
    mutating func terminate() -> Resources? {
        phase = .terminated
        defer { resources = nil }
        return resources
    }
}
