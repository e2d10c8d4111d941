/// A type that receives values and a completion from a publisher.
///
/// A subscriber receives exactly one subscription, then values (never more than it has asked
/// for through the subscription or the demand it returns from ``receive(_:)``), then at most one
/// completion.
///
/// ```swift
/// final class Printer: Subscriber {
///     func receive(subscription: any Subscription) { subscription.request(.unlimited) }
///     func receive(_ input: Int) -> Subscribers.Demand { print(input); return .none }
///     func receive(completion: Subscribers.Completion<Never>) { print("done") }
/// }
/// [1, 2].publisher.receive(subscriber: Printer())
/// ```
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    /// The kind of values this subscriber receives.
    associatedtype Input

    /// The kind of error this subscriber may receive.
    associatedtype Failure: Error

    /// Tells the subscriber that it is subscribed; use `subscription` to ask for values or cancel.
    func receive(subscription: any Subscription)

    /// Delivers a value and returns how many more values the subscriber wants, on top of what it
    /// has already asked for (`.none` for no more).
    func receive(_ input: Input) -> Subscribers.Demand

    /// Tells the subscriber that the publisher has finished or failed. Nothing follows it.
    func receive(completion: Subscribers.Completion<Failure>)
}

extension Subscriber where Input == Void {
    /// Delivers the `Void` value: shorthand for `receive(())`.
    ///
    /// ```swift
    /// let demand = subscriber.receive()
    /// ```
    @inlinable
    public func receive() -> Subscribers.Demand {
        receive(())
    }
}
