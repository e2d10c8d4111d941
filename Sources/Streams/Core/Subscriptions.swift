/// The namespace of ready-made subscriptions.
///
/// ```swift
/// subscriber.receive(subscription: Subscriptions.empty)
/// subscriber.receive(completion: .finished)
/// ```
public enum Subscriptions {}

extension Subscriptions {
    /// A subscription that ignores requests and cancellation: for publishers that complete at
    /// once, or to tell a subscriber it will receive nothing.
    ///
    /// ```swift
    /// subscriber.receive(subscription: Subscriptions.empty)
    /// ```
    public static var empty: any Subscription { EmptySubscription.shared }
}

/// The subscription behind ``Subscriptions/empty``.
@usableFromInline
final class EmptySubscription: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, Sendable
{
    @usableFromInline
    static let shared = EmptySubscription()

    @usableFromInline
    init() {}

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {}

    @usableFromInline
    func cancel() {}

    @usableFromInline
    var description: String { "Empty" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
