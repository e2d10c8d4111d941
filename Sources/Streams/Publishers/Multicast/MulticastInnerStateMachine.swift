/// The state of a ``MulticastInner``: a value with no lock and no callouts. Each event method
/// updates it and returns what the inner must do once the lock is released.
///
/// Phases:
/// - `awaitingSubscription(subject)`: the subject's subscription → `subscribed`; a completion is
///   ignored; `cancel` → `terminated`, so that a later subscription is cancelled.
/// - `subscribed(subject, subscription)`: the first completion or `cancel` → `terminated`;
///   requests go to the subject's subscription.
/// - `terminated`: everything is ignored; a subscription is cancelled.
///
/// The subject is kept until the end and handed out then, to be released outside the lock.
@usableFromInline
struct MulticastInnerStateMachine {
    @usableFromInline
    enum Phase {
        case awaitingSubscription(subject: AnyObject)
        case subscribed(subject: AnyObject, subscription: any Subscription)
        case terminated
    }

    @usableFromInline
    var phase: Phase

    @inlinable
    init(subject: AnyObject) {
        phase = .awaitingSubscription(subject: subject)
    }

    /// The subject sent its subscription: whether it is the first (to hand the inner
    /// downstream); a second one, or one after the end, is to be cancelled.
    @inlinable
    mutating func receiveSubscription(_ subscription: any Subscription) -> Bool {
        guard case .awaitingSubscription(let subject) = phase else { return false }
        phase = .subscribed(subject: subject, subscription: subscription)
        return true
    }

    /// What to do with a completion from the subject.
    @usableFromInline
    enum CompletionAction {
        /// Not subscribed (or already ended): the completion is ignored.
        case ignore
        /// Forward the completion; `released` (the subject) is let go outside the lock.
        case forward(released: AnyObject)
    }

    /// The subject sent a completion: whether to forward it (the first one, while subscribed),
    /// and the subject, to release outside the lock.
    @inlinable
    mutating func receiveCompletion() -> CompletionAction {
        guard case .subscribed(let subject, _) = phase else { return .ignore }
        phase = .terminated
        return .forward(released: subject)
    }

    /// The downstream (or the link, for returned demand) asks for values: the subscription to
    /// ask, or `nil` unless subscribed.
    @inlinable
    func request() -> (any Subscription)? {
        if case .subscribed(_, let subscription) = phase { return subscription }
        return nil
    }

    /// What to do when the downstream cancels.
    @usableFromInline
    enum CancelAction {
        /// Already terminal: nothing.
        case ignore
        /// The inner ended: cancel the subject's subscription if there is one; release the
        /// subject.
        case end(cancelling: (any Subscription)?, released: AnyObject)
    }

    /// The downstream cancels.
    @inlinable
    mutating func cancel() -> CancelAction {
        switch phase {
        case .awaitingSubscription(let subject):
            phase = .terminated
            return .end(cancelling: nil, released: subject)
        case .subscribed(let subject, let subscription):
            phase = .terminated
            return .end(cancelling: subscription, released: subject)
        case .terminated:
            return .ignore
        }
    }
}
