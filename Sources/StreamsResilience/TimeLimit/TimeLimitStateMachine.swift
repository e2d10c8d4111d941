import Streams

/// The state of a subscription with a time limit (`attemptTimeout`, `deadline`): a value with no
/// lock and no callouts. Each event updates it and returns what the subscription must do once
/// the lock is released.
///
/// Phases:
/// - `awaitingSubscription(downstream)`: the upstream subscription → `subscribed`; `cancel` →
///   `terminated` (a subscription arriving later is cancelled).
/// - `subscribed(downstream, upstream)`: values pass; the timer is armed once the downstream
///   has the subscription; the upstream's completion → `terminated` (the timer is cancelled);
///   the timer firing → `terminated` (the upstream is cancelled and the downstream fails);
///   `cancel` → `terminated`.
/// - `terminated`: everything has been let go; values, completions and a late timer are ignored.
@usableFromInline
struct TimeLimitStateMachine<Downstream: Subscriber> {
    @usableFromInline
    enum Phase {
        case awaitingSubscription(Downstream)
        case subscribed(Downstream, upstream: any Subscription)
        case terminated
    }

    @usableFromInline
    enum ReceiveSubscriptionAction {
        /// Hand the subscription to the downstream, then arm the timer.
        case forward(Downstream)
        case cancel
    }

    @usableFromInline
    enum ArmedAction {
        /// The timer is kept until it fires or the stream ends.
        case keep
        /// The stream ended before the timer was kept: cancel it.
        case cancelTimer(any Cancellable)
    }

    @usableFromInline
    enum ReceiveValueAction {
        case deliver(Downstream)
        case drop
    }

    @usableFromInline
    enum ReceiveCompletionAction {
        /// Cancel the timer (if armed) and deliver the completion.
        case deliver(Downstream, timer: (any Cancellable)?)
        case none
    }

    @usableFromInline
    enum FiredAction {
        /// Time is up: cancel the timer and the upstream, and fail the downstream.
        case timeOut(Downstream, upstream: any Subscription, timer: (any Cancellable)?)
        case none
    }

    @usableFromInline
    enum RequestAction {
        case forward(any Subscription)
        case none
    }

    @usableFromInline
    enum CancelAction {
        case cancel(any Subscription, timer: (any Cancellable)?)
        case none
    }

    @usableFromInline
    var phase: Phase
    /// The armed timer (subscribed).
    @usableFromInline
    var timer: (any Cancellable)?

    @inlinable
    init(downstream: Downstream) {
        phase = .awaitingSubscription(downstream)
    }

    @inlinable
    mutating func receiveSubscription(_ upstream: any Subscription) -> ReceiveSubscriptionAction {
        guard case .awaitingSubscription(let downstream) = phase else { return .cancel }
        phase = .subscribed(downstream, upstream: upstream)
        return .forward(downstream)
    }

    @inlinable
    mutating func armed(_ timer: any Cancellable) -> ArmedAction {
        guard case .subscribed = phase else { return .cancelTimer(timer) }
        self.timer = timer
        return .keep
    }

    @inlinable
    func receiveValue() -> ReceiveValueAction {
        guard case .subscribed(let downstream, _) = phase else { return .drop }
        return .deliver(downstream)
    }

    @inlinable
    mutating func receiveCompletion() -> ReceiveCompletionAction {
        guard case .subscribed(let downstream, _) = phase else { return .none }
        phase = .terminated
        defer { timer = nil }
        return .deliver(downstream, timer: timer)
    }

    @inlinable
    mutating func fired() -> FiredAction {
        guard case .subscribed(let downstream, let upstream) = phase else { return .none }
        phase = .terminated
        defer { timer = nil }
        return .timeOut(downstream, upstream: upstream, timer: timer)
    }

    @inlinable
    func request() -> RequestAction {
        guard case .subscribed(_, let upstream) = phase else { return .none }
        return .forward(upstream)
    }

    @inlinable
    mutating func cancel() -> CancelAction {
        switch phase {
        case .awaitingSubscription:
            phase = .terminated
            return .none
        case .subscribed(_, let upstream):
            phase = .terminated
            defer { timer = nil }
            return .cancel(upstream, timer: timer)
        case .terminated:
            return .none
        }
    }
}
