/// Where an operator's link to its upstream stands.
///
/// Operators keep one of these under their lock: it makes a second subscription, events after a
/// completion and a cancel racing with a completion each harmless.
@usableFromInline
enum SubscriptionStatus {
    /// No subscription has arrived yet.
    case awaitingSubscription
    /// Subscribed to `upstream`.
    case subscribed(any Subscription)
    /// Completed or cancelled: everything from now on is ignored.
    case terminal

    /// The upstream subscription, when subscribed.
    @inlinable
    var subscription: (any Subscription)? {
        if case .subscribed(let subscription) = self { subscription } else { nil }
    }
}
