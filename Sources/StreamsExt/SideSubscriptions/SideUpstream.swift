import Streams

/// The upstream of an operator with side subscriptions that subscribes to it once (`sample`,
/// `flatMapFirst`): `awaitingSubscription` → `subscribed` → `finished` (finished, failed, or let
/// go of when the stream ended).
@usableFromInline
enum SideUpstream {
    case awaitingSubscription
    case subscribed(any Subscription)
    case finished

    /// The upstream's subscription while `subscribed`.
    @inlinable
    var subscription: (any Subscription)? {
        if case .subscribed(let subscription) = self { subscription } else { nil }
    }

    /// The upstream's subscription has arrived: kept and asked for all its values while the
    /// stream is `live` and none has arrived before; otherwise cancelled.
    @inlinable
    mutating func admit(_ subscription: any Subscription, live: Bool) -> SubscriptionArrival {
        guard live, case .awaitingSubscription = self else { return .cancel }
        self = .subscribed(subscription)
        return .request(.unlimited)
    }
}
