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
/// The downstream is kept as `AnyObject` (the inner knows its type), so the machine is not
/// generic.
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

    /// The subject sent a completion: the downstream to forward it to, or `nil` to ignore it.
    @inlinable
    mutating func receiveCompletion() -> AnyObject? {
        switch phase {
        case .subscribed(let downstream, _):
            phase = .terminal(downstream: downstream)
            return downstream
        case .awaitingSubscription, .terminal:
            return nil
        }
    }

    /// The downstream (or the inner, for returned demand) asks for values: the subscription to
    /// ask, or `nil` once terminal.
    @inlinable
    func request() -> (any Subscription)? {
        if case .subscribed(_, let subscription) = phase { return subscription }
        return nil
    }

    /// The downstream cancels: the subscription to cancel, the first time only.
    @inlinable
    mutating func cancel() -> (any Subscription)? {
        switch phase {
        case .awaitingSubscription(let downstream):
            phase = .terminal(downstream: downstream)
            return nil
        case .subscribed(let downstream, let subscription):
            phase = .terminal(downstream: downstream)
            return subscription
        case .terminal:
            return nil
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

    /// Whether the inner has ended (for tests).
    @inlinable
    var isTerminal: Bool {
        if case .terminal = phase { return true }
        return false
    }
}
