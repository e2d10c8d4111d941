/// The connection between a publisher and one subscriber.
///
/// A subscriber asks for values with ``request(_:)`` and stops them with `cancel()`. Both may be
/// called from any thread, and from inside the subscriber's own `receive(_:)`.
///
/// ```swift
/// func receive(subscription: any Subscription) {
///     subscription.request(.max(1))   // one value at a time
/// }
/// ```
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    /// Asks the publisher for `demand` more values. Demand only adds up; `.none` is a
    /// contract violation and traps.
    func request(_ demand: Subscribers.Demand)
}
