/// The state of a ``ConcatenateSubscription`` (`append`, `prepend`): a value with no lock and
/// no callouts. Each event updates it and returns what the subscription must do once the lock is
/// released.
///
/// Phases, and the events that move between them:
/// - `awaitingPrefix`: the prefix's subscription → `prefix`.
/// - `prefix`: `.finished` → `awaitingSuffix` (the suffix is subscribed outside the lock); a
///   failure → `terminated`.
/// - `awaitingSuffix`: the suffix's subscription → `suffix`.
/// - `suffix`: its completion → `terminated`.
///
/// `cancel()` leads from every phase to `terminated`; a subscription that arrives after it is
/// cancelled, and a prefix that finishes after it subscribes nothing. As in Combine, prefix
/// values are counted against the downstream's demand and one beyond it is dropped; the suffix
/// is asked for what remains.
@usableFromInline
struct ConcatenateStateMachine<Resources> {
    @usableFromInline
    enum Phase {
        case awaitingPrefix
        case prefix(any Subscription)
        case awaitingSuffix
        case suffix(any Subscription)
        /// Completed or cancelled: everything is let go, later events are ignored.
        case terminated
    }

    @usableFromInline
    var phase = Phase.awaitingPrefix
    /// Requested by the downstream and not yet used up by a prefix value.
    @usableFromInline
    var demand = Subscribers.Demand.none
    /// The downstream and the suffix publisher; nil once terminal.
    @usableFromInline
    var resources: Resources?

    @inlinable
    init(resources: Resources) {
        self.resources = resources
    }

    /// What to do with a subscription once the lock is released.
    @usableFromInline
    enum SubscriptionAction {
        /// Hand the operator's subscription to the downstream, then ask the prefix for the
        /// demand requested before (if any).
        case handOver(Resources, Subscribers.Demand)
        /// Ask the suffix for this demand.
        case request(Subscribers.Demand)
        /// A subscription nobody wants: cancel it.
        case cancel
    }

    /// The prefix's subscription arrived.
    @inlinable
    mutating func prefixSubscribed(_ subscription: any Subscription) -> SubscriptionAction {
        guard case .awaitingPrefix = phase, let resources else { return .cancel }
        phase = .prefix(subscription)
        return .handOver(resources, demand)
    }

    /// A prefix value arrived: where to deliver it, or nil to drop it (before the prefix's
    /// subscription, after its completion, or beyond the demand).
    @inlinable
    mutating func prefixValue() -> Resources? {
        guard case .prefix = phase, demand > 0 else { return nil }
        if demand != .unlimited { demand -= 1 }
        return resources
    }

    /// The downstream returned `additional` for a prefix value.
    @inlinable
    mutating func prefixValueDelivered(returning additional: Subscribers.Demand) {
        demand += additional
    }

    /// What to do with a completion once the lock is released.
    @usableFromInline
    enum CompletionAction {
        case none
        /// Subscribe to the suffix.
        case subscribeSuffix(Resources)
        /// Send the completion downstream; the resources are let go.
        case complete(Resources)
    }

    /// The prefix finished (`failed == false`) or failed.
    @inlinable
    mutating func prefixCompleted(failed: Bool) -> CompletionAction {
        guard case .prefix = phase, let resources else { return .none }
        guard failed else {
            phase = .awaitingSuffix
            return .subscribeSuffix(resources)
        }
        return complete()
    }

    /// The suffix's subscription arrived.
    @inlinable
    mutating func suffixSubscribed(_ subscription: any Subscription) -> SubscriptionAction {
        guard case .awaitingSuffix = phase else { return .cancel }
        phase = .suffix(subscription)
        return .request(demand)
    }

    /// A suffix value arrived: where to deliver it, or nil to ignore it.
    @inlinable
    func suffixValue() -> Resources? {
        guard case .suffix = phase else { return nil }
        return resources
    }

    /// The suffix completed.
    @inlinable
    mutating func suffixCompleted() -> CompletionAction {
        guard case .suffix = phase else { return .none }
        return complete()
    }

    /// Marks the machine terminal and lets go of the resources, to be used outside the lock.
    @inlinable
    mutating func complete() -> CompletionAction {
        phase = .terminated
        defer { resources = nil }
        return resources.map(CompletionAction.complete) ?? .none
    }

    /// The downstream requested `demand` (`.none` is allowed): the active side's subscription
    /// to forward it to, if any.
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> SubscriptionStatus {
        switch phase {
        case .prefix(let subscription), .suffix(let subscription):
            self.demand += demand
            return .subscribed(subscription)
        case .awaitingPrefix, .awaitingSuffix:
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

    /// The downstream cancelled: the active side's subscription to cancel, if any, and the
    /// resources to let go of outside the lock.
    @inlinable
    mutating func cancel() -> CancelAction {
        defer {
            phase = .terminated
            resources = nil
        }
        switch phase {
        case .prefix(let subscription), .suffix(let subscription):
            return .cancel(subscription, released: resources)
        case .awaitingPrefix, .awaitingSuffix, .terminated:
            return resources.map { .release($0) } ?? .none
        }
    }
}
