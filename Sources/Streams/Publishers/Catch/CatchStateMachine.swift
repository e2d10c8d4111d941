/// The state of a ``CatchSubscription`` (`catch`, `tryCatch`): a value with no lock and no
/// callouts. Each event updates it and returns what the subscription must do once the lock is
/// released.
///
/// Phases, and the events that move between them:
/// - `awaitingSubscription`: the upstream's subscription → `subscribed`. A `cancel()` here changes
///   nothing (a late subscription is still accepted), as in Combine.
/// - `subscribed`: `.finished` → `terminated`; a failure → `awaitingRecovery` (the handler runs
///   outside the lock); `cancel()` → `terminated`.
/// - `awaitingRecovery`: the recovery's subscription → `subscribedToRecovery`; the handler threw →
///   `terminated`; `cancel()` → `terminated`, and the recovery subscription is cancelled when it
///   arrives (Combine loses that cancel).
/// - `subscribedToRecovery`: its completion → `terminated`; `cancel()` → `terminated`.
///
/// An upstream failure traps before the upstream's subscription and while recovering (a second
/// failure, also one sent from inside the handler), as in Combine; once terminal (a completion
/// went downstream, the handler threw, or the downstream cancelled) upstream completions are
/// ignored, as in Combine.
///
/// Demand is counted for the upstream only: each upstream value takes one, and a value with
/// none outstanding traps, as in Combine (this is also how a value before the subscription
/// traps). Upstream values are passed on in every phase until the downstream cancels or a
/// completion goes downstream; both let go of `resources` (the downstream and the handler).
/// Combine keeps passing upstream values after a cancel, and so keeps the downstream: with a
/// subscriber that holds on to its subscription that is a reference cycle.
///
/// The machine is not generic, and keeps the resources as `AnyObject` (the subscription knows
/// their type): an upstream may call the subscription from unspecialised code, where every use
/// of a generic type costs a metadata lookup. The phase is a plain enum and the subscription sits
/// beside it: an `any Subscription` inside the enum would be copied through its value witnesses
/// by every `switch` on the phase (Docs/Performance.md, "`catch` did the same").
@usableFromInline
struct CatchStateMachine {
    @usableFromInline
    typealias Resources = AnyObject

    @usableFromInline
    enum Phase {
        case awaitingSubscription
        /// Values come from the upstream, whose subscription is `subscription`.
        case subscribed
        case awaitingRecovery
        /// Values come from the recovery publisher, whose subscription is `subscription`.
        case subscribedToRecovery
        /// A completion went downstream or the downstream cancelled: everything is let go,
        /// later events are ignored.
        case terminated
    }

    @usableFromInline
    var phase = Phase.awaitingSubscription
    /// The upstream's subscription (`subscribed`) or the recovery's (`subscribedToRecovery`); nil otherwise.
    @usableFromInline
    var subscription: (any Subscription)?
    /// Requested by the downstream and not yet used up by an upstream value.
    @usableFromInline
    var demand = Subscribers.Demand.none
    /// The downstream and the handler; nil once completed.
    @usableFromInline
    var resources: Resources?

    @inlinable
    init(resources: Resources) {
        self.resources = resources
    }

    /// What to do with a subscription once the lock is released.
    @usableFromInline
    enum SubscriptionAction {
        /// Hand the subscription to the downstream.
        case handOver(Resources)
        /// Ask the recovery subscription for this demand.
        case request(Subscribers.Demand)
        /// Nothing (no demand to ask for yet).
        case none
        /// A subscription nobody wants: cancel it.
        case cancel
    }

    /// The upstream's subscription arrived.
    @inlinable
    mutating func upstreamSubscribed(_ subscription: any Subscription) -> SubscriptionAction {
        guard case .awaitingSubscription = phase, let resources else { return .cancel }
        phase = .subscribed
        self.subscription = subscription
        return .handOver(resources)
    }

    /// An upstream value arrived: where to deliver it, or nil to ignore it (once completed or
    /// cancelled).
    @inlinable
    mutating func upstreamValue() -> Resources? {
        switch phase {
        case .terminated: return nil
        case .awaitingSubscription, .subscribed, .awaitingRecovery, .subscribedToRecovery: break
        }
        precondition(demand > 0, "Catch received a value without demand")
        if demand != .unlimited { demand -= 1 }
        return resources
    }

    /// The downstream returned `additional` for an upstream value.
    @inlinable
    mutating func upstreamValueDelivered(returning additional: Subscribers.Demand) {
        demand += additional
    }

    /// What to do with an upstream completion once the lock is released.
    @usableFromInline
    enum CompletionAction {
        case none
        /// Send the completion downstream; the resources are let go.
        case complete(Resources)
        /// Run the handler and subscribe to the publisher it makes.
        case recover(Resources)
    }

    /// The upstream finished (`failed == false`) or failed.
    @inlinable
    mutating func upstreamCompleted(failed: Bool) -> CompletionAction {
        if failed {
            switch phase {
            case .awaitingSubscription:
                preconditionFailure("Unexpected state: received completion but do not have subscription")
            case .subscribed:
                phase = .awaitingRecovery
                subscription = nil
                return resources.map(CompletionAction.recover) ?? .none
            case .terminated:
                return .none
            case .awaitingRecovery, .subscribedToRecovery:
                preconditionFailure(
                    "Unexpected state: received completion but do not have subscription (a second failure)")
            }
        }
        guard case .subscribed = phase else { return .none }
        return complete()
    }

    /// The handler threw: its error goes downstream, unless the downstream cancelled meanwhile.
    @inlinable
    mutating func handlerThrew() -> CompletionAction {
        guard case .awaitingRecovery = phase else { return .none }
        return complete()
    }

    /// The recovery publisher's subscription arrived.
    @inlinable
    mutating func recoverySubscribed(_ subscription: any Subscription) -> SubscriptionAction {
        guard case .awaitingRecovery = phase else { return .cancel }
        phase = .subscribedToRecovery
        self.subscription = subscription
        return demand > 0 ? .request(demand) : .none
    }

    /// What to do with a recovery publisher whose outcome is known without subscribing.
    @usableFromInline
    enum ImmediateRecoveryAction {
        /// Subscribe to it: its value would wait for demand.
        case subscribe
        /// Drop it: the downstream cancelled (a subscription would be cancelled at once).
        case ignore
        /// Pass its value (if any) and its completion on, as a subscribed recovery's.
        case deliver
    }

    /// The handler made a recovery publisher whose outcome is known: with `hasValue`, one
    /// value then `.finished`; else its completion alone. Subscribing would deliver it at once
    /// when there is demand for the value (it is asked for the demand left) or there is no
    /// value; then the machine moves to `subscribedToRecovery` as if it had subscribed, with a subscription
    /// that ignores requests and cancels.
    @inlinable
    mutating func recoveredImmediately(hasValue: Bool) -> ImmediateRecoveryAction {
        guard case .awaitingRecovery = phase else { return .ignore }
        if hasValue && demand == .none { return .subscribe }
        phase = .subscribedToRecovery
        subscription = Subscriptions.empty
        return .deliver
    }

    /// A recovery value arrived: where to deliver it, or nil to ignore it (before the recovery's
    /// subscription, after its completion or a cancel). Recovery values are not counted against
    /// the demand, as in Combine.
    @inlinable
    func recoveryValue() -> Resources? {
        guard case .subscribedToRecovery = phase else { return nil }
        return resources
    }

    /// The recovery publisher completed.
    @inlinable
    mutating func recoveryCompleted() -> CompletionAction {
        guard case .subscribedToRecovery = phase else { return .none }
        return complete()
    }

    /// Marks the machine completed and lets go of the resources, to be used outside the lock.
    @inlinable
    mutating func complete() -> CompletionAction {
        phase = .terminated
        subscription = nil
        defer { resources = nil }
        return resources.map(CompletionAction.complete) ?? .none
    }

    /// The downstream requested `demand`: the subscription to forward it to, if any (as a
    /// status, which leaves the lock cheaper than an optional existential).
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> SubscriptionStatus {
        precondition(demand > 0, "API Violation: demand must not be zero")
        switch phase {
        case .awaitingSubscription:
            preconditionFailure("Unexpected state: request before subscription sent")
        case .subscribed, .subscribedToRecovery:
            self.demand += demand
            return .subscribed(subscription.unsafelyUnwrapped)
        case .awaitingRecovery:
            self.demand += demand
            return .terminated
        case .terminated:
            return .terminated
        }
    }

    /// What a cancel does once the lock is released.
    @usableFromInline
    enum CancelAction {
        /// Nothing to cancel or let go of.
        case none
        /// Cancel `subscription`; `released` (the resources, if still held) is let go outside the
        /// lock.
        case cancel(any Subscription, released: Resources?)
        /// Nothing to cancel; `released` (the resources) is let go outside the lock.
        case release(Resources)
    }

    /// The downstream cancelled: the subscription to cancel, if any, and the resources to let
    /// go of outside the lock. Before the upstream's subscription this changes nothing, as in
    /// Combine.
    @inlinable
    mutating func cancel() -> CancelAction {
        switch phase {
        case .awaitingSubscription, .terminated:
            return .none
        case .subscribed, .subscribedToRecovery, .awaitingRecovery:
            break
        }
        let active = subscription.take()
        phase = .terminated
        defer { resources = nil }
        if let active { return .cancel(active, released: resources) }
        return resources.map { .release($0) } ?? .none
    }
}
