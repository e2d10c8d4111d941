/// An operator's inner object that subscribes to a second publisher (a recovery, a suffix, a
/// trigger, an upstream) through a ``SideSubscriber`` and takes its events here.
///
/// ```swift
/// extension MySubscription: SideSubscriberParent {
///     func receiveSide(subscription: any Subscription) { subscription.request(.max(1)) }
///     func receiveSide(_ input: Int) -> Subscribers.Demand { .none }
///     func receiveSide(completion: Subscribers.Completion<Never>) {}
/// }
/// trigger.receive(subscriber: SideSubscriber(parent: mySubscription))
/// ```
@usableFromInline
package protocol SideSubscriberParent: AnyObject {
    /// What the second publisher sends.
    associatedtype SideInput
    /// How the second publisher fails.
    associatedtype SideFailure: Error

    func receiveSide(subscription: any Subscription)
    func receiveSide(_ input: SideInput) -> Subscribers.Demand
    func receiveSide(completion: Subscribers.Completion<SideFailure>)
}

/// Subscribes to a second publisher on behalf of `parent` and passes its events on.
///
/// As in Combine, both sides report the one inner object: the `combineIdentifier` is the
/// parent's, and so are the description, mirror and playground description where the parent
/// has them (and only there: the parent of `prefix(untilOutputFrom:)` has none).
@usableFromInline
package struct SideSubscriber<Parent: SideSubscriberParent>: Subscriber {
    @usableFromInline
    package let parent: Parent

    @inlinable
    package var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }

    @inlinable
    package init(parent: Parent) {
        self.parent = parent
    }

    @inlinable
    package func receive(subscription: any Subscription) {
        parent.receiveSide(subscription: subscription)
    }

    @inlinable
    package func receive(_ input: Parent.SideInput) -> Subscribers.Demand {
        parent.receiveSide(input)
    }

    @inlinable
    package func receive(completion: Subscribers.Completion<Parent.SideFailure>) {
        parent.receiveSide(completion: completion)
    }
}

extension SideSubscriber: CustomStringConvertible where Parent: CustomStringConvertible {
    @inlinable
    package var description: String { parent.description }
}

extension SideSubscriber: CustomReflectable where Parent: CustomReflectable {
    @inlinable
    package var customMirror: Mirror { parent.customMirror }
}

extension SideSubscriber: CustomPlaygroundDisplayConvertible where Parent: CustomPlaygroundDisplayConvertible {
    @inlinable
    package var playgroundDescription: Any { parent.playgroundDescription }
}
