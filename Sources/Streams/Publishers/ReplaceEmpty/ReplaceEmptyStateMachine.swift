/// The state of `replaceEmpty(with:)`'s subscription: a value with no lock and no callouts.
/// Each event updates it and returns what the subscription must do once the lock is released.
///
/// Phases, and the events that move between them:
/// - `awaitingSubscription`: the upstream's subscription → `subscribed`. Requests made before
///   it are added up and asked for when it arrives; a `cancel()` changes nothing, as in Combine.
/// - `subscribed`: a failure, or `.finished` after a value → `terminated`; `.finished` with no
///   value → `terminated` once the downstream has requested (the replacement goes first), else
///   `completing` until it requests.
/// - `completing`: a request → `terminated`.
///
/// `cancel()` leads from the last two to `terminated`.
@usableFromInline
struct ReplaceEmptyStateMachine<Resources> {
    @usableFromInline
    enum Phase {
        case awaitingSubscription
        case subscribed(any Subscription)
        /// The upstream finished empty before the downstream requested anything.
        case completing
        /// Completed or cancelled: everything is let go, later events are ignored.
        case terminated
    }

    @usableFromInline
    var phase = Phase.awaitingSubscription
    /// Requested before the subscription arrived.
    @usableFromInline
    var pendingDemand = Subscribers.Demand.none
    @usableFromInline
    var requested = false
    @usableFromInline
    var sawValue = false
    /// The downstream; nil once terminal.
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
        return .handOver(resources, request: pendingDemand)
    }

    /// A value arrived: where to deliver it, or nil to ignore it (before the subscription or
    /// once terminal).
    @inlinable
    mutating func value() -> Resources? {
        guard case .subscribed = phase else { return nil }
        sawValue = true
        return resources
    }

    /// What to do once the lock is released.
    @usableFromInline
    enum Action {
        case none
        /// Send the upstream's completion downstream.
        case complete(Resources)
        /// Send the replacement, then `.finished`.
        case replace(Resources)
        /// Forward the request upstream.
        case forward(any Subscription)
    }

    /// The upstream finished (`failed == false`) or failed.
    @inlinable
    mutating func completed(failed: Bool) -> Action {
        guard case .subscribed = phase, let resources else { return .none }
        if failed || sawValue {
            terminate()
            return .complete(resources)
        }
        guard requested else {
            phase = .completing
            return .none
        }
        terminate()
        return .replace(resources)
    }

    /// The downstream requested `demand`.
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> Action {
        precondition(demand > 0, "API Violation: demand must not be zero")
        requested = true
        switch phase {
        case .awaitingSubscription:
            pendingDemand += demand
            return .none
        case .subscribed(let subscription):
            return .forward(subscription)
        case .completing:
            guard let resources = terminate() else { return .none }
            return .replace(resources)
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
