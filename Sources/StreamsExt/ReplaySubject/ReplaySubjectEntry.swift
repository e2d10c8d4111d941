import Streams

/// A ``ReplaySubject``'s handle on one of its subscriptions.
///
/// The closures are made where the subscription's type is known, so that sending through them
/// runs code specialised for it.
@usableFromInline
struct ReplaySubjectEntry<Output, Failure: Error> {
    /// Offers a value to the subscription.
    @usableFromInline
    let offer: (Output) -> Void
    /// Hands the subscription the subject's completion.
    @usableFromInline
    let finish: (Subscribers.Completion<Failure>) -> Void

    @inlinable
    init<Downstream: Subscriber>(_ subscription: ReplaySubjectSubscription<Downstream>)
    where Downstream.Input == Output, Downstream.Failure == Failure {
        offer = { subscription.offer($0) }
        finish = { subscription.finish($0) }
    }

    /// What stands for a removed subscription in the subject's list: it ignores what it is given.
    @inlinable
    static var removed: Self {
        Self(offer: { _ in }, finish: { _ in })
    }

    @inlinable
    init(offer: @escaping (Output) -> Void, finish: @escaping (Subscribers.Completion<Failure>) -> Void) {
        self.offer = offer
        self.finish = finish
    }
}
