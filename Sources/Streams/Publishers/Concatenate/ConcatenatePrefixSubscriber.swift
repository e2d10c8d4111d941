/// The prefix's subscriber for a ``ConcatenateSubscription``: it passes the prefix's events on
/// to the subscription.
///
/// As in Combine, the downstream's subscription, the prefix's subscriber and the suffix's (a
/// ``SideSubscriber``) are three objects of three types that report one inner: the
/// `combineIdentifier`, description, mirror and playground description are the subscription's.
@usableFromInline
struct ConcatenatePrefixSubscriber<Prefix: Publisher, Suffix: Publisher, Downstream: Subscriber>: Subscriber,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where
    Prefix.Output == Downstream.Input, Suffix.Output == Downstream.Input, Prefix.Failure == Downstream.Failure,
    Suffix.Failure == Downstream.Failure
{
    @usableFromInline
    typealias Input = Prefix.Output
    @usableFromInline
    typealias Failure = Prefix.Failure

    @usableFromInline
    let parent: ConcatenateSubscription<Prefix, Suffix, Downstream>

    @inlinable
    init(parent: ConcatenateSubscription<Prefix, Suffix, Downstream>) {
        self.parent = parent
    }

    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }

    @inlinable
    func receive(subscription: any Subscription) {
        parent.receivePrefix(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Prefix.Output) -> Subscribers.Demand {
        parent.receivePrefix(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Prefix.Failure>) {
        parent.receivePrefix(completion: completion)
    }

    @usableFromInline
    var description: String { parent.description }

    @usableFromInline
    var customMirror: Mirror { parent.customMirror }

    @usableFromInline
    var playgroundDescription: Any { parent.playgroundDescription }
}
