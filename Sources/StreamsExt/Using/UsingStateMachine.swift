import Streams

/// The state of a `Publishers.Using` subscription: a value with no lock and no callouts. Each
/// event updates it and returns what the subscription must do once the lock is released.
///
/// Phases:
/// - `awaitingSubscription(downstream, disposal)`: the upstream has been subscribed to; its
///   subscription → `subscribed`, and the downstream gets this one.
/// - `subscribed(upstream, downstream, disposal)`: everything passes straight through. The
///   completion or `cancel()` → `terminated`, handing out the disposal to run once.
/// - `terminated`: completed or cancelled; the resource has been disposed of (or is being) and
///   nothing is held.
///
/// The disposal (the resource and the closure that disposes of it) lives only in the phases
/// before `terminated`, so it is handed out once.
@usableFromInline
struct UsingStateMachine<Downstream: Subscriber> {
    @usableFromInline
    enum Phase {
        case awaitingSubscription(Box<Downstream>, disposal: () -> Void)
        case subscribed(upstream: any Subscription, downstream: Box<Downstream>, disposal: () -> Void)
        case terminated
    }

    @usableFromInline
    var phase: Phase

    @inlinable
    init(downstream: Downstream, disposal: @escaping () -> Void) {
        phase = .awaitingSubscription(Box(downstream), disposal: disposal)
    }

    @usableFromInline
    enum SubscriptionAction {
        /// Hand the downstream the subscription.
        case subscribe(Box<Downstream>)
        /// A second subscription, or one after the end: cancel it.
        case cancel
    }

    @inlinable
    mutating func receiveSubscription(_ subscription: any Subscription) -> SubscriptionAction {
        guard case .awaitingSubscription(let downstream, let disposal) = phase else { return .cancel }
        phase = .subscribed(upstream: subscription, downstream: downstream, disposal: disposal)
        return .subscribe(downstream)
    }

    /// A value arrived: the downstream to deliver it to, while subscribed.
    @inlinable
    func receiveValue() -> Box<Downstream>? {
        guard case .subscribed(_, let downstream, _) = phase else { return nil }
        return downstream
    }

    @usableFromInline
    enum CompletionAction {
        /// Complete this downstream, then run the disposal.
        case complete(Box<Downstream>, disposal: () -> Void)
        case none
    }

    @inlinable
    mutating func receiveCompletion() -> CompletionAction {
        guard case .subscribed(_, let downstream, let disposal) = phase else { return .none }
        phase = .terminated
        return .complete(downstream, disposal: disposal)
    }

    /// The downstream's request: the upstream to pass it to, while subscribed.
    @inlinable
    func request() -> (any Subscription)? {
        guard case .subscribed(let upstream, _, _) = phase else { return nil }
        return upstream
    }

    @usableFromInline
    enum CancelAction {
        /// Cancel the upstream, then run the disposal; the downstream is let go of outside the
        /// lock.
        case cancel(any Subscription, disposal: () -> Void, released: Box<Downstream>)
        case none
    }

    @inlinable
    mutating func cancel() -> CancelAction {
        guard case .subscribed(let upstream, let downstream, let disposal) = phase else { return .none }
        phase = .terminated
        return .cancel(upstream, disposal: disposal, released: downstream)
    }
}
