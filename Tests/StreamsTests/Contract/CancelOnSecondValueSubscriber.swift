import Streams

/// Asks for one value at a time from inside `receive(_:)`, with `request` rather than the
/// returned demand, and cancels from inside `receive(_:)` on its second value; counts the
/// values that still arrive after that cancel.
///
/// ```swift
/// let subscriber = CancelOnSecondValueSubscriber<Int, TestError>()
/// publisher.subscribe(subscriber)
/// #expect(subscriber.valuesAfterCancel == 0)
/// ```
final class CancelOnSecondValueSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    private var subscription: (any Subscription)?
    private(set) var received = 0
    private var cancelled = false
    private(set) var valuesAfterCancel = 0

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.max(1))
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard !cancelled else {
            valuesAfterCancel += 1
            return .none
        }
        received += 1
        if received == 2 {
            cancelled = true
            subscription?.cancel()
            subscription = nil
        } else {
            subscription?.request(.max(1))
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        subscription = nil
    }
}
