import Streams

/// How an operator with side subscriptions (`amb`, `flatMapFirst`, `sample`, `retryWhen`) ends
/// its stream, by a completion or by the downstream's cancel, as its state machine decides under
/// the lock; ``perform()`` carries it out after the lock is released, and what the action holds
/// (the downstream, the subscriptions) is let go of after that.
///
/// A completion decided while a value is on its way downstream is not sent at once: the machine
/// returns ``cancel(_:released:)`` for what still runs, and the thread delivering the value sends
/// the completion (a ``complete(_:_:cancel:)`` with nothing left to cancel) once the value
/// returns.
@usableFromInline
enum SideEnding<Downstream: Subscriber> {
    /// Cancel `cancel`, then send `completion` to the downstream.
    case complete(Box<Downstream>, Subscribers.Completion<Downstream.Failure>, cancel: [any Subscription])
    /// Cancel these. After a completion decided during a delivery, the completion is sent by the
    /// thread delivering the value; after the downstream's cancel, `released` is the downstream
    /// the machine let go of.
    case cancel([any Subscription], released: Box<Downstream>? = nil)
    /// Nothing ends.
    case none

    /// Cancels what is to be cancelled, then completes the downstream if that is the action.
    @inlinable
    func perform() {
        switch self {
        case .complete(let downstream, let completion, let subscriptions):
            for subscription in subscriptions { subscription.cancel() }
            downstream.value.receive(completion: completion)
        case .cancel(let subscriptions, _):
            for subscription in subscriptions { subscription.cancel() }
        case .none:
            break
        }
    }
}
