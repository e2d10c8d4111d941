import Streams

/// The downstream's part of the state of an operator with side subscriptions (`sample`,
/// `flatMapFirst`, `retryWhen`): whether values may still go to it, the demand it has not had
/// met, whether a value is on its way to it, and a completion decided meanwhile, which waits for
/// that value to return. It lives in the operator's state machine, under its lock, beside what
/// the operator keeps of its upstream, trigger or inner publishers; like the machine, it makes no
/// callouts: each change returns what to do once the lock is released.
///
/// Stages: `live(downstream)` → `completing(downstream, completion)` (the stream ended while a
/// value was on its way; `completion` is sent when it returns) → `terminated` (completed or
/// cancelled; everything has been let go of).
///
/// ```swift
/// guard let downstream = state.downstream.claim() else { return .none }   // under the lock
/// ```
@usableFromInline
struct SideDownstream<Downstream: Subscriber> {
    @usableFromInline
    typealias Completion = Subscribers.Completion<Downstream.Failure>

    @usableFromInline
    enum Stage {
        case live(Box<Downstream>)
        case completing(Box<Downstream>, Completion)
        case terminated
    }

    @usableFromInline
    var stage: Stage
    /// Requested by the downstream and not yet delivered.
    @usableFromInline
    var demand = Subscribers.Demand.none
    /// Whether a value is on its way downstream (outside the lock).
    @usableFromInline
    var delivering = false

    @inlinable
    init(_ downstream: Downstream) {
        stage = .live(Box(downstream))
    }

    /// The downstream while values may still go to it.
    @inlinable
    var live: Box<Downstream>? {
        if case .live(let downstream) = stage { downstream } else { nil }
    }

    /// A subscription for `slot` has arrived: it is kept there and asked for `demand` while
    /// values may still go downstream and the slot is empty; otherwise it is cancelled.
    @inlinable
    func admit(
        _ subscription: any Subscription, into slot: inout (any Subscription)?, asking demand: Subscribers.Demand
    ) -> SubscriptionArrival {
        guard live != nil, slot == nil else { return .cancel }
        slot = subscription
        return .request(demand)
    }

    /// Adds the downstream's demand while values may still go to it; returns whether they may.
    @inlinable
    mutating func request(_ additional: Subscribers.Demand) -> Bool {
        guard live != nil else { return false }
        demand += additional
        return true
    }

    /// Takes one of the demand for a value: the downstream to send it to, outside the lock, and
    /// then report with ``delivered(_:)``; `nil` when there is no demand or no downstream.
    @inlinable
    mutating func claim() -> Box<Downstream>? {
        guard let downstream = live, demand > 0 else { return nil }
        demand -= 1
        delivering = true
        return downstream
    }

    /// A value was delivered and the downstream asked for `additional` more: sends the
    /// completion that waited for it, if any.
    @inlinable
    mutating func delivered(_ additional: Subscribers.Demand) -> SideEnding<Downstream> {
        delivering = false
        switch stage {
        case .live:
            demand += additional
            return .none
        case .completing(let downstream, let completion):
            stage = .terminated
            return .complete(downstream, completion, cancel: [])
        case .terminated:
            return .none
        }
    }

    /// Ends the stream with `completion`, cancelling `subscriptions`; while a value is on its
    /// way downstream, the completion waits for it to return.
    @inlinable
    mutating func end(_ completion: Completion, cancel subscriptions: [any Subscription]) -> SideEnding<Downstream> {
        guard delivering, let downstream = live else { return terminate(completion, cancel: subscriptions) }
        stage = .completing(downstream, completion)
        return .cancel(subscriptions)
    }

    /// Ends the stream with `completion` at once, cancelling `subscriptions`.
    @inlinable
    mutating func terminate(_ completion: Completion, cancel subscriptions: [any Subscription]) -> SideEnding<Downstream> {
        guard let downstream = live else { return .cancel(subscriptions) }
        stage = .terminated
        return .complete(downstream, completion, cancel: subscriptions)
    }

    /// The downstream cancelled: cancel `subscriptions`, and let the downstream go outside the
    /// lock (a completion that waited is not sent).
    @inlinable
    mutating func cancel(_ subscriptions: [any Subscription]) -> SideEnding<Downstream> {
        let released: Box<Downstream>
        switch stage {
        case .live(let downstream), .completing(let downstream, _): released = downstream
        case .terminated: return .none
        }
        stage = .terminated
        return .cancel(subscriptions, released: released)
    }
}
