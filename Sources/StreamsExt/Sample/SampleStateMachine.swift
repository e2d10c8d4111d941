import Streams

/// The state of a `sample` subscription: a value with no lock and no callouts. Each event
/// updates it and returns what the subscription must do once the lock is released.
///
/// Phases:
/// - `awaitingSubscription(downstream)`: the downstream has the subscription; the upstream's has
///   not arrived. Its arrival → `subscribed`.
/// - `subscribed(downstream, upstream)`: upstream values replace the latest one; a trigger value
///   takes it (once) and sends it downstream.
/// - `completing(downstream, completion)`: `completion == nil`: the upstream finished, and the
///   next trigger value sends the latest value, if any, and finishes. Otherwise the stream has
///   ended while a value was on its way downstream, and `completion` is sent once it returns.
/// - `terminated`: completed or cancelled; everything has been let go and is ignored.
///
/// Beside the phase: the trigger's subscription, the latest upstream value not yet sampled, the
/// downstream's demand not yet met and whether a value is being delivered.
@usableFromInline
struct SampleStateMachine<Downstream: Subscriber> {
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    enum Phase {
        case awaitingSubscription(Box<Downstream>)
        case subscribed(Box<Downstream>, upstream: any Subscription)
        case completing(Box<Downstream>, Subscribers.Completion<Failure>?)
        case terminated
    }

    @usableFromInline
    var phase: Phase
    @usableFromInline
    var trigger: (any Subscription)?
    /// The newest upstream value since the last sample.
    @usableFromInline
    var latest: Downstream.Input?
    /// Requested by the downstream and not yet delivered.
    @usableFromInline
    var demand = Subscribers.Demand.none
    /// Whether a value is on its way downstream (outside the lock).
    @usableFromInline
    var delivering = false

    @inlinable
    init(downstream: Downstream) {
        phase = .awaitingSubscription(Box(downstream))
    }

    /// The downstream while values may still go to it.
    @inlinable
    var downstream: Box<Downstream>? {
        switch phase {
        case .awaitingSubscription(let downstream), .subscribed(let downstream, _), .completing(let downstream, nil):
            downstream
        case .completing, .terminated:
            nil
        }
    }

    @inlinable
    var upstream: (any Subscription)? {
        if case .subscribed(_, let upstream) = phase { upstream } else { nil }
    }

    // MARK: Upstream

    @usableFromInline
    enum SubscriptionAction {
        case requestUnlimited
        case cancel
    }

    @inlinable
    mutating func receiveUpstreamSubscription(_ subscription: any Subscription) -> SubscriptionAction {
        guard case .awaitingSubscription(let downstream) = phase else { return .cancel }
        phase = .subscribed(downstream, upstream: subscription)
        return .requestUnlimited
    }

    @inlinable
    mutating func receiveUpstreamValue(_ value: Downstream.Input) {
        guard case .subscribed = phase else { return }
        latest = value
    }

    @inlinable
    mutating func receiveUpstreamCompletion(_ completion: Subscribers.Completion<Failure>) -> EndAction {
        guard case .subscribed(let downstream, _) = phase else { return .none }
        if case .failure = completion { return end(completion, downstream: downstream, cancelUpstream: false) }
        phase = .completing(downstream, nil)
        return .none
    }

    // MARK: Trigger

    @inlinable
    mutating func receiveTriggerSubscription(_ subscription: any Subscription) -> SubscriptionAction {
        guard downstream != nil, trigger == nil else { return .cancel }
        trigger = subscription
        return .requestUnlimited
    }

    @usableFromInline
    enum SampleAction {
        /// Cancel `cancel` (when this value ends the stream), send `value` to the downstream,
        /// then report with ``delivered(_:)``.
        case deliver(Box<Downstream>, Downstream.Input, cancel: [any Subscription])
        case end(EndAction)
    }

    /// The trigger sent a value (`finishing == false`) or finished (`finishing == true`).
    @inlinable
    mutating func receiveTrigger(finishing: Bool) -> SampleAction {
        guard let downstream else { return .end(.none) }
        if delivering {
            // Sent from inside the downstream: no sample now; finishing waits for it to return.
            return .end(finishing ? end(.finished, downstream: downstream, cancelUpstream: true) : .none)
        }
        let upstreamFinished: Bool
        if case .completing = phase { upstreamFinished = true } else { upstreamFinished = false }
        let ends = finishing || upstreamFinished
        guard demand > 0, let value = latest else {
            return .end(ends ? end(.finished, downstream: downstream, cancelUpstream: true) : .none)
        }
        latest = nil
        demand -= 1
        delivering = true
        // When this value ends the stream, the completion is sent once its delivery returns.
        guard ends, case .cancel(let subscriptions) = end(.finished, downstream: downstream, cancelUpstream: true) else {
            return .deliver(downstream, value, cancel: [])
        }
        return .deliver(downstream, value, cancel: subscriptions)
    }

    /// A value was delivered and the downstream asked for `additional` more.
    @inlinable
    mutating func delivered(_ additional: Subscribers.Demand) -> EndAction {
        delivering = false
        if case .completing(let downstream, let completion?) = phase {
            phase = .terminated
            return .complete(downstream, completion, cancel: [])
        }
        if downstream != nil { demand += additional }
        return .none
    }

    @inlinable
    mutating func receiveTriggerFailure(_ failure: Failure) -> EndAction {
        guard let downstream else { return .none }
        trigger = nil
        return end(.failure(failure), downstream: downstream, cancelUpstream: true)
    }

    // MARK: Downstream

    @inlinable
    mutating func request(_ additional: Subscribers.Demand) {
        guard downstream != nil else { return }
        demand += additional
    }

    @usableFromInline
    enum CancelAction {
        /// Cancel these; the downstream is let go of outside the lock.
        case cancel([any Subscription], released: Box<Downstream>)
        case none
    }

    @inlinable
    mutating func cancel() -> CancelAction {
        let released: Box<Downstream>
        switch phase {
        case .awaitingSubscription(let downstream), .subscribed(let downstream, _), .completing(let downstream, _):
            released = downstream
        case .terminated:
            return .none
        }
        let subscriptions = [upstream, trigger].compactMap { $0 }
        phase = .terminated
        trigger = nil
        latest = nil
        return .cancel(subscriptions, released: released)
    }

    // MARK: Ending

    /// What ends the stream.
    @usableFromInline
    enum EndAction {
        /// Cancel `cancel`, then send `completion` to the downstream.
        case complete(Box<Downstream>, Subscribers.Completion<Failure>, cancel: [any Subscription])
        /// Cancel these; the completion is sent by the thread delivering a value.
        case cancel([any Subscription])
        case none
    }

    /// Ends the stream with `completion`, cancelling the trigger (and the upstream when
    /// `cancelUpstream`); while a value is being delivered the completion waits for it to return.
    @inlinable
    mutating func end(
        _ completion: Subscribers.Completion<Failure>, downstream: Box<Downstream>, cancelUpstream: Bool
    ) -> EndAction {
        let subscriptions = [cancelUpstream ? upstream : nil, trigger].compactMap { $0 }
        trigger = nil
        latest = nil
        guard !delivering else {
            phase = .completing(downstream, completion)
            return .cancel(subscriptions)
        }
        phase = .terminated
        return .complete(downstream, completion, cancel: subscriptions)
    }
}
