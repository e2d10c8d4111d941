/// The state of a ``RecoveringSubscription`` (`replaceError(with:)`, `asResult()`): a value with
/// no lock and no callouts. Each event updates it and returns what the subscription must do once
/// the lock is released.
///
/// Phases, and the events that move between them:
/// - `awaitingSubscription`: the upstream's subscription → `subscribed`. Requests made before
///   it are added up and asked for when it arrives; a `cancel()` changes nothing, as in Combine.
/// - `subscribed`: `.finished` → `terminated`; a failure → `terminated` if the downstream has demand
///   for the last value, else `completing` until it requests.
/// - `completing`: a request → `terminated` (the last value and `.finished` go downstream).
///
/// `cancel()` leads from the last two to `terminated`. Each value takes one unit of the counted
/// demand, and a value with none outstanding traps, as in Combine.
@usableFromInline
struct RecoveringStateMachine<Resources, Failure: Error> {
    @usableFromInline
    enum Phase {
        case awaitingSubscription
        case subscribed(any Subscription)
        /// The upstream failed while the downstream had no demand.
        case completing(Failure)
        /// Completed or cancelled: everything is let go, later events are ignored.
        case terminated
    }

    @usableFromInline
    var phase = Phase.awaitingSubscription
    /// Requested by the downstream and not yet used up.
    @usableFromInline
    var demand = Subscribers.Demand.none
    /// The downstream and the closures; nil once terminal.
    @usableFromInline
    var resources: Resources?

    @inlinable
    init(resources: Resources) {
        self.resources = resources
    }

    /// What to do with a subscription from upstream.
    @usableFromInline
    enum SubscriptionAction {
        /// A second subscription, or one after the end: cancel it.
        case cancel
        /// Hand the subscription to the resources' downstream, then ask it for `request`.
        case handOver(Resources, request: Subscribers.Demand)
    }

    /// The upstream's subscription arrived: the resources to hand the subscription to, with the
    /// demand requested before it, or `.cancel` to cancel it.
    @inlinable
    mutating func subscribed(_ subscription: any Subscription) -> SubscriptionAction {
        guard case .awaitingSubscription = phase, let resources else { return .cancel }
        phase = .subscribed(subscription)
        return .handOver(resources, request: demand)
    }

    /// A value arrived: where to deliver it, or nil to ignore it (before the subscription or
    /// once terminal).
    @inlinable
    mutating func value() -> Resources? {
        guard case .subscribed = phase else { return nil }
        precondition(demand > 0, "received a value without demand")
        if demand != .unlimited { demand -= 1 }
        return resources
    }

    /// The downstream returned `additional` for a value.
    @inlinable
    mutating func valueDelivered(returning additional: Subscribers.Demand) {
        demand += additional
    }

    /// What to do once the lock is released.
    @usableFromInline
    enum Action {
        case none
        /// Send `.finished` downstream.
        case finish(Resources)
        /// Send the last value made from the failure, then `.finished`.
        case deliverFinal(Resources, Failure)
        /// Forward the request upstream.
        case forward(any Subscription)
    }

    /// The upstream finished (`failure == nil`) or failed.
    @inlinable
    mutating func completed(failure: Failure?) -> Action {
        guard case .subscribed = phase, let resources else { return .none }
        guard let failure else {
            terminate()
            return .finish(resources)
        }
        guard demand > 0 else {
            phase = .completing(failure)
            return .none
        }
        terminate()
        return .deliverFinal(resources, failure)
    }

    /// The downstream requested `demand`.
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> Action {
        precondition(demand > 0, "API Violation: demand must not be zero")
        switch phase {
        case .awaitingSubscription:
            self.demand += demand
            return .none
        case .subscribed(let subscription):
            self.demand += demand
            return .forward(subscription)
        case .completing(let failure):
            guard let resources = terminate() else { return .none }
            return .deliverFinal(resources, failure)
        case .terminated:
            return .none
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

    /// The downstream cancelled: the subscription to cancel, if any, and the resources to let go
    /// of outside the lock. Before the subscription this changes nothing, as in Combine.
    @inlinable
    mutating func cancel() -> CancelAction {
        switch phase {
        case .awaitingSubscription, .terminated:
            return .none
        case .subscribed(let subscription):
            return .cancel(subscription, released: terminate())
        case .completing:
            return terminate().map { .release($0) } ?? .none
        }
    }

    /// Marks the machine terminal and lets go of the resources, returned to be used or released
    /// outside the lock.
    @inlinable
    @discardableResult
    mutating func terminate() -> Resources? {
        phase = .terminated
        defer { resources = nil }
        return resources
    }
}
