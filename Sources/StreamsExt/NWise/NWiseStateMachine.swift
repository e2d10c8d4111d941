import Streams

/// The state of an `nwise(_:)` subscription: a value with no lock and no callouts. Each event
/// updates it and returns what the subscription must do once the lock is released.
///
/// Phases:
/// - `awaitingSubscription(downstream)`: the upstream's subscription → `subscribed`; a
///   `cancel()` → `terminated` (a subscription arriving later is cancelled).
/// - `subscribed(downstream, upstream)`: each value joins the window, the oldest leaving once it
///   is full; a full window goes downstream. The upstream's completion or a `cancel()` →
///   `terminated`.
/// - `terminated`: completed or cancelled; the downstream and the window have been let go.
///
/// The window sits beside the phase: it changes on every value.
@usableFromInline
struct NWiseStateMachine<Downstream: Subscriber, Value> {
    @usableFromInline
    enum Phase {
        case awaitingSubscription(Box<Downstream>)
        case subscribed(Box<Downstream>, upstream: any Subscription)
        case terminated
    }

    @usableFromInline
    var phase: Phase
    /// The last values, oldest first, at most `size` of them.
    @usableFromInline
    var window: [Value] = []
    @usableFromInline
    let size: Int

    @inlinable
    init(downstream: Downstream, size: Int) {
        phase = .awaitingSubscription(Box(downstream))
        self.size = size
        window.reserveCapacity(size)
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
        /// Send this full window downstream.
        case deliver(Box<Downstream>, [Value])
        /// The window is not full yet: ask upstream for one more value.
        case fill
        /// Before the subscription or after the end: ignore the value.
        case none
    }

    @inlinable
    mutating func receiveValue(_ value: Value) -> ReceiveValueAction {
        guard case .subscribed(let downstream, _) = phase else { return .none }
        if window.count == size { window.removeFirst() }
        window.append(value)
        return window.count == size ? .deliver(downstream, window) : .fill
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
        window = []
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
        /// Cancel the upstream; what was held is let go of outside the lock.
        case cancel(any Subscription, released: Box<Downstream>, window: [Value])
        /// Nothing to cancel; what was held is let go of outside the lock.
        case release(Phase, window: [Value])
    }

    @inlinable
    mutating func cancel() -> CancelAction {
        let previous = phase
        let window = self.window
        phase = .terminated
        self.window = []
        if case .subscribed(let downstream, let upstream) = previous {
            return .cancel(upstream, released: downstream, window: window)
        }
        return .release(previous, window: window)
    }
}
