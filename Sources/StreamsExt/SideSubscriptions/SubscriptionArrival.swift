import Streams

/// What an operator with side subscriptions does with a subscription that has just arrived (from
/// its upstream, a trigger, a contender, an inner publisher or an attempt), as its state machine
/// decides under the lock; ``apply(to:)`` carries it out after the lock is released.
@usableFromInline
enum SubscriptionArrival {
    /// Keep it and ask it for this much (nothing if `.none`).
    case request(Subscribers.Demand)
    /// It is not wanted (a second one, or one that arrives after the end): cancel it.
    case cancel

    /// Asks `subscription` for its demand, or cancels it.
    @inlinable
    func apply(to subscription: any Subscription) {
        switch self {
        case .request(let demand): if demand > 0 { subscription.request(demand) }
        case .cancel: subscription.cancel()
        }
    }
}
