/// A subscriber that hides the type of the subscriber it wraps, or that is made from closures.
///
/// ```swift
/// let printer = AnySubscriber<Int, Never>(
///     receiveSubscription: { $0.request(.unlimited) },
///     receiveValue: { print($0); return .none },
///     receiveCompletion: { print($0) })
/// [1, 2].publisher.receive(subscriber: printer)
/// ```
@frozen
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    let receiveSubscriptionThunk: (any Subscription) -> Void
    @usableFromInline
    let receiveValueThunk: (Input) -> Subscribers.Demand
    @usableFromInline
    let receiveCompletionThunk: (Subscribers.Completion<Failure>) -> Void
    @usableFromInline
    let descriptionThunk: () -> String
    @usableFromInline
    let mirrorThunk: () -> Mirror

    /// The identifier of the wrapped subscriber, or a new one for a closure-made subscriber.
    public let combineIdentifier: CombineIdentifier

    /// Wraps `subscriber`; the result has the same identifier and description.
    ///
    /// ```swift
    /// let erased = AnySubscriber(Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in }))
    /// ```
    @inlinable
    public init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
        if let erased = subscriber as? AnySubscriber<Input, Failure> {
            self = erased
            return
        }
        combineIdentifier = subscriber.combineIdentifier
        receiveSubscriptionThunk = subscriber.receive(subscription:)
        receiveValueThunk = subscriber.receive(_:)
        receiveCompletionThunk = subscriber.receive(completion:)
        descriptionThunk = { String(describing: subscriber) }
        mirrorThunk = { Mirror(reflecting: subscriber) }
    }

    /// Wraps `subject` in the subscriber that `subscribe(_ subject:)` attaches: the subject is
    /// sent that subscriber as its one subscription (described `"Subject"`; a second
    /// subscription is cancelled), then the values, then the first completion only.
    ///
    /// ```swift
    /// let relay = PassthroughSubject<Int, Never>()
    /// [1, 2].publisher.receive(subscriber: AnySubscriber(relay))
    /// ```
    @inlinable
    public init<S: Subject>(_ subject: S) where S.Output == Input, S.Failure == Failure {
        self.init(SubjectSubscriber(subject: subject))
    }

    /// Makes a subscriber from closures; a missing closure does nothing (a missing
    /// `receiveValue` asks for no more values).
    ///
    /// ```swift
    /// let subscriber = AnySubscriber<Int, Never>(receiveValue: { print($0); return .unlimited })
    /// ```
    @inlinable
    public init(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        combineIdentifier = CombineIdentifier()
        receiveSubscriptionThunk = receiveSubscription ?? { _ in }
        receiveValueThunk = receiveValue ?? { _ in .none }
        receiveCompletionThunk = receiveCompletion ?? { _ in }
        descriptionThunk = { "Anonymous AnySubscriber" }
        mirrorThunk = { Mirror(reflecting: "Anonymous AnySubscriber") }
    }

    /// The wrapped subscriber's description, or `"Anonymous AnySubscriber"`.
    public var description: String { descriptionThunk() }

    /// The wrapped subscriber's mirror.
    public var customMirror: Mirror { mirrorThunk() }

    /// The description, for playgrounds.
    public var playgroundDescription: Any { description }

    /// Forwards the subscription.
    @inlinable
    public func receive(subscription: any Subscription) {
        receiveSubscriptionThunk(subscription)
    }

    /// Forwards the value and returns the wrapped subscriber's demand.
    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
        receiveValueThunk(value)
    }

    /// Forwards the completion.
    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
        receiveCompletionThunk(completion)
    }
}
