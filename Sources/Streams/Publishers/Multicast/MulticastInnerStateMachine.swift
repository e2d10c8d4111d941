/// The state of a ``MulticastInner``: a value with no lock and no callouts. Each event method
/// updates it and returns what the inner must do once the lock is released.
///
/// Phases:
/// - `awaitingSubscription(downstream)`: the subject's subscription → `subscribed`; values and
///   completions are ignored.
/// - `subscribed(downstream, subscription)`: the first completion or `cancel` → `terminal`;
///   requests go to the subject's subscription.
/// - `terminal(downstream)`: everything is ignored; the downstream is kept only until the
///   delivery gate lets it go (a value may still be under way), then `terminal(nil)`.
///
/// "downstream" is whatever the inner keeps alive for its deliveries (the downstream subscriber
/// and the subject), as `AnyObject`: the inner knows its type, so the machine is not generic.
@usableFromInline
struct MulticastInnerStateMachine {
    @usableFromInline
    enum Phase {
        case awaitingSubscription(downstream: AnyObject)
        case subscribed(downstream: AnyObject, subscription: any Subscription)
        case terminal(downstream: AnyObject?)
    }

    @usableFromInline
    var phase: Phase

    @inlinable
    init(downstream: AnyObject) {
        phase = .awaitingSubscription(downstream: downstream)
    }

    /// What to do with a subscription from the subject.
    @usableFromInline
    enum SubscriptionAction {
        /// Hand the inner itself to this downstream.
        case handDownstream(AnyObject)
        /// A second subscription, or one after the end: cancel it.
        case cancel
    }

    /// The subject sent its subscription.
    @inlinable
    mutating func receiveSubscription(_ subscription: any Subscription) -> SubscriptionAction {
        switch phase {
        case .awaitingSubscription(let downstream):
            phase = .subscribed(downstream: downstream, subscription: subscription)
            return .handDownstream(downstream)
        case .subscribed, .terminal:
            return .cancel
        }
    }

    /// The subject sent a completion: whether to forward it (the first one, while subscribed).
    @inlinable
    mutating func receiveCompletion() -> Bool {
        guard case .subscribed(let downstream, _) = phase else { return false }
        phase = .terminal(downstream: downstream)
        return true
    }

    /// The downstream (or the inner, for returned demand) asks for values: the subscription to
    /// ask, or `nil` once terminal.
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
        /// The inner ended: close the gate, and cancel the subject's subscription if there is one.
        case end(cancelling: (any Subscription)?)
    }

    /// The downstream cancels.
    @inlinable
    mutating func cancel() -> CancelAction {
        switch phase {
        case .awaitingSubscription(let downstream):
            phase = .terminal(downstream: downstream)
            return .end(cancelling: nil)
        case .subscribed(let downstream, let subscription):
            phase = .terminal(downstream: downstream)
            return .end(cancelling: subscription)
        case .terminal:
            return .ignore
        }
    }

    /// The delivery gate says the downstream can go: hands it out, to be released outside the
    /// lock.
    @inlinable
    mutating func releaseDownstream() -> AnyObject? {
        guard case .terminal(let downstream) = phase else {
            preconditionFailure("MulticastInnerStateMachine: internal inconsistency: released before terminal")
        }
        phase = .terminal(downstream: nil)
        return downstream
    }
}
