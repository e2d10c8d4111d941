import Foundation

/// What `Timer.TimerPublisher` attaches to its subject for each subscriber: it hands the
/// subscriber a ``TimerPublisherSubscription`` in place of the subject's own subscription, so
/// that, as in Combine, the timer's subscription reports no description and no mirror.
@usableFromInline
// Unchecked: it holds the downstream, which need not be Sendable.
final class TimerPublisherSubscriber<Downstream: Subscriber>: Subscriber, @unchecked Sendable
where Downstream.Input == Date, Downstream.Failure == Never {
    @usableFromInline
    let downstream: Downstream

    @inlinable
    init(_ downstream: Downstream) {
        self.downstream = downstream
    }

    @inlinable
    func receive(subscription: any Subscription) {
        downstream.receive(subscription: TimerPublisherSubscription(subscription))
    }

    @inlinable
    func receive(_ input: Date) -> Subscribers.Demand {
        downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Never>) {
        downstream.receive(completion: completion)
    }
}
