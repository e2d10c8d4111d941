#if !canImport(Combine)
import Foundation

/// Where a ``NotificationSubscription`` stands: a value with no lock and no callouts.
enum NotificationSubscriptionStateMachine<Downstream: Subscriber> {
    /// Observing, with what the subscriber still wants and the center's observer token
    /// (nil only while the observer is being added).
    case subscribed(Downstream, demand: Subscribers.Demand, observer: (any NSObjectProtocol)?)
    case terminated

    /// A notification arrived: the subscriber to call, after taking one from its demand,
    /// or nil to drop the notification.
    mutating func take() -> Downstream? {
        guard case .subscribed(let downstream, let demand, let observer) = self, demand > 0 else { return nil }
        self = .subscribed(downstream, demand: demand - 1, observer: observer)
        return downstream
    }

    /// Adds `more` to the demand while subscribed.
    mutating func add(_ more: Subscribers.Demand) {
        guard more > 0, case .subscribed(let downstream, let demand, let observer) = self else { return }
        self = .subscribed(downstream, demand: demand + more, observer: observer)
    }
}
#endif
