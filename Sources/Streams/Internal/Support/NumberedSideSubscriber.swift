/// An operator's inner object that subscribes to several publishers of one kind (contenders,
/// inner publishers, attempts, children) through a ``NumberedSideSubscriber`` each, and takes
/// their events here with the number it gave each one.
///
/// ```swift
/// extension MySubscription: NumberedSideSubscriberParent {
///     func receiveSide(subscription: any Subscription, number: Int) { subscription.request(.max(1)) }
///     func receiveSide(_ input: Int, number: Int) -> Subscribers.Demand { .none }
///     func receiveSide(completion: Subscribers.Completion<Never>, number: Int) {}
/// }
/// inner.receive(subscriber: NumberedSideSubscriber(parent: mySubscription, number: 3))
/// ```
@usableFromInline
package protocol NumberedSideSubscriberParent: AnyObject, CustomStringConvertible {
    /// What the numbered publishers send.
    associatedtype NumberedInput
    /// How the numbered publishers fail.
    associatedtype NumberedFailure: Error

    /// The children of each numbered subscriber's mirror: none, unless the operator's are
    /// Combine's (`flatMap`'s and `switchToLatest`'s show the subscription they work for).
    var numberedMirrorChildren: KeyValuePairs<String, Any> { get }

    func receiveSide(subscription: any Subscription, number: Int)
    func receiveSide(_ input: NumberedInput, number: Int) -> Subscribers.Demand
    func receiveSide(completion: Subscribers.Completion<NumberedFailure>, number: Int)
}

extension NumberedSideSubscriberParent {
    @inlinable
    package var numberedMirrorChildren: KeyValuePairs<String, Any> { [:] }
}

/// Subscribes to one of several publishers on behalf of `parent`, and passes its events on with
/// its `number`, so that the parent tells them apart (and recognises a late event of one it has
/// let go).
///
/// Each one is a subscriber of its own, with a `combineIdentifier` of its own; it describes
/// itself as the parent does, and its mirror shows the parent's ``NumberedSideSubscriberParent/numberedMirrorChildren``.
@usableFromInline
package struct NumberedSideSubscriber<Parent: NumberedSideSubscriberParent>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    package let parent: Parent
    /// The number the parent gave this publisher.
    @usableFromInline
    package let number: Int
    @usableFromInline
    package let combineIdentifier = CombineIdentifier()

    @inlinable
    package init(parent: Parent, number: Int) {
        self.parent = parent
        self.number = number
    }

    @inlinable
    package func receive(subscription: any Subscription) {
        parent.receiveSide(subscription: subscription, number: number)
    }

    @inlinable
    package func receive(_ input: Parent.NumberedInput) -> Subscribers.Demand {
        parent.receiveSide(input, number: number)
    }

    @inlinable
    package func receive(completion: Subscribers.Completion<Parent.NumberedFailure>) {
        parent.receiveSide(completion: completion, number: number)
    }

    @inlinable
    package var description: String { parent.description }

    @inlinable
    package var customMirror: Mirror { Mirror(self, children: parent.numberedMirrorChildren) }

    @inlinable
    package var playgroundDescription: Any { description }
}
