/// The closures of `handleEvents` (and of `print`, which is built on it): what its subscription
/// keeps. It holds the closures only, not the `Publishers.HandleEvents` value, so that a
/// subscription does not keep its upstream publisher (a relay, a subject, what they hold)
/// alive, as in Combine.
@usableFromInline
struct EventHooks<Output, Failure: Error> {
    @usableFromInline
    let receiveSubscription: ((any Subscription) -> Void)?
    @usableFromInline
    let receiveOutput: ((Output) -> Void)?
    @usableFromInline
    let receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    @usableFromInline
    let receiveCancel: (() -> Void)?
    @usableFromInline
    let receiveRequest: ((Subscribers.Demand) -> Void)?

    @inlinable
    init(
        receiveSubscription: ((any Subscription) -> Void)?,
        receiveOutput: ((Output) -> Void)?,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?,
        receiveCancel: (() -> Void)?,
        receiveRequest: ((Subscribers.Demand) -> Void)?
    ) {
        self.receiveSubscription = receiveSubscription
        self.receiveOutput = receiveOutput
        self.receiveCompletion = receiveCompletion
        self.receiveCancel = receiveCancel
        self.receiveRequest = receiveRequest
    }
}
