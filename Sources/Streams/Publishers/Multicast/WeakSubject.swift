/// Stands for a subject without keeping it alive: what a multicast's connection feeds, so that
/// releasing the multicast (and with it the subject) while connected lets the subject go.
/// Once the subject is gone, values and completions go nowhere and a subscription is cancelled.
@usableFromInline
final class WeakSubject<Wrapped: Subject>: Subject, @unchecked Sendable {
    @usableFromInline
    typealias Output = Wrapped.Output
    @usableFromInline
    typealias Failure = Wrapped.Failure

    @usableFromInline
    weak var subject: Wrapped?

    @inlinable
    init(_ subject: Wrapped) {
        self.subject = subject
    }

    @inlinable
    func send(_ value: Output) {
        subject?.send(value)
    }

    @inlinable
    func send(completion: Subscribers.Completion<Failure>) {
        subject?.send(completion: completion)
    }

    @inlinable
    func send(subscription: any Subscription) {
        guard let subject else {
            subscription.cancel()
            return
        }
        subject.send(subscription: subscription)
    }

    @inlinable
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        guard let subject else {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: .finished)
            return
        }
        subject.receive(subscriber: subscriber)
    }
}
