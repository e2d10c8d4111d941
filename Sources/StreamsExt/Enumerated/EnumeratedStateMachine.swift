import Streams

/// The state of an `enumerated(initial:)` subscription: a value with no lock and no callouts.
/// Each event updates it and returns what the subscription must do once the lock is released.
///
/// Phases:
/// - `awaitingSubscription(downstream)`: the upstream's subscription → `subscribed`; a `cancel()`
///   → `terminated` (a subscription arriving later is cancelled).
/// - `subscribed(downstream, upstream)`: each value takes the next index; the upstream's
///   completion or a `cancel()` → `terminated`.
/// - `terminated`: completed or cancelled; the downstream has been let go, everything is ignored.
///
/// The next index sits beside the phase: it changes on every value, and a payload holding the
/// upstream subscription would be copied in and out to change it.
@usableFromInline
struct EnumeratedStateMachine<Downstream: Subscriber> {
    @usableFromInline
    enum Phase {
        case awaitingSubscription(Box<Downstream>)
        case subscribed(Box<Downstream>, upstream: any Subscription)
        case terminated
    }

    @usableFromInline
    var phase: Phase
    /// The index the next value gets.
    @usableFromInline
    var next: Int

    @inlinable
    init(downstream: Downstream, initial: Int) {
        phase = .awaitingSubscription(Box(downstream))
        next = initial
    }

    @usableFromInline
    enum ReceiveSubscriptionAction {
        /// Hand the subscription to this downstream.
        case attach(Box<Downstream>)
        /// A second subscription, or one after the end: cancel it.
        case cancel
    }

    @inlinable
    mutating func receiveSubscription(_ upstream: any Subscription) -> ReceiveSubscriptionAction {
        guard case .awaitingSubscription(let downstream) = phase else { return .cancel }
        phase = .subscribed(downstream, upstream: upstream)
        return .attach(downstream)
    }

    @usableFromInline
    enum ReceiveValueAction {
        /// Send the value downstream with this index.
        case deliver(Box<Downstream>, index: Int)
        /// Before the subscription or after the end: ignore the value.
        case none
    }

    @inlinable
    mutating func receiveValue() -> ReceiveValueAction {
        guard case .subscribed(let downstream, _) = phase else { return .none }
        defer { next += 1 }
        return .deliver(downstream, index: next)
    }

    @usableFromInline
    enum ReceiveCompletionAction {
        /// Forward the completion to this downstream.
        case forward(Box<Downstream>)
        case none
    }

    @inlinable
    mutating func receiveCompletion() -> ReceiveCompletionAction {
        guard case .subscribed(let downstream, _) = phase else { return .none }
        phase = .terminated
        return .forward(downstream)
    }

    @usableFromInline
    enum RequestAction {
        /// Ask the upstream for the demand.
        case forward(any Subscription)
        case none
    }

    @inlinable
    func request() -> RequestAction {
        guard case .subscribed(_, let upstream) = phase else { return .none }
        return .forward(upstream)
    }

    @usableFromInline
    enum CancelAction {
        /// Cancel the upstream; the downstream is let go of outside the lock.
        case cancel(any Subscription, released: Box<Downstream>)
        /// Nothing to cancel; the downstream, if any, is let go of outside the lock.
        case release(Box<Downstream>?)
    }

    @inlinable
    mutating func cancel() -> CancelAction {
        let previous = phase
        phase = .terminated
        switch previous {
        case .awaitingSubscription(let downstream):
            return .release(downstream)
        case .subscribed(let downstream, let upstream):
            return .cancel(upstream, released: downstream)
        case .terminated:
            return .release(nil)
        }
    }

    /// The downstream while the subscription is live, for the mirror.
    @inlinable
    var downstream: Downstream? {
        switch phase {
        case .awaitingSubscription(let downstream), .subscribed(let downstream, _): downstream.value
        case .terminated: nil
        }
    }
}
