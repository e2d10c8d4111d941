/// Where an operator's link to its upstream stands.
///
/// Operators keep one of these under their lock: it makes a second subscription, events after a
/// completion and a cancel racing with a completion each harmless.
@usableFromInline
package enum SubscriptionStatus {
    /// No subscription has arrived yet.
    case awaitingSubscription
    /// Subscribed to `upstream`.
    case subscribed(any Subscription)
    /// Completed or cancelled: everything from now on is ignored.
    case terminated

    /// The upstream subscription, when subscribed.
    @inlinable
    package var subscription: (any Subscription)? {
        if case .subscribed(let subscription) = self { subscription } else { nil }
    }
}

extension SubscriptionStatus {
    // Handing the status itself out of a lock, rather than `subscription`, saves copying an
    // optional existential, which goes through the generic `Optional` value witnesses each time
    // (Docs/Performance.md has the measured cost).

    /// Cancels the upstream subscription, when subscribed.
    @inlinable
    package func cancel() {
        if case .subscribed(let subscription) = self { subscription.cancel() }
    }

    /// Asks the upstream subscription for `demand`, when subscribed.
    @inlinable
    package func request(_ demand: Subscribers.Demand) {
        if case .subscribed(let subscription) = self { subscription.request(demand) }
    }
}
