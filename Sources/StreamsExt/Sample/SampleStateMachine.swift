import Streams

/// The state of a `sample` subscription: a value with no lock and no callouts. Each event
/// updates it and returns what the subscription must do once the lock is released.
///
/// Beside the downstream's part (a ``SideDownstream``: the downstream while values may go to it,
/// its demand not yet met, whether a value is on its way and a completion waiting for it), the
/// upstream's stage (a ``SideUpstream``: `awaitingSubscription` → `subscribed`, whose values
/// replace the latest one → `finished`, after which the next trigger value sends the latest
/// value, if any, and finishes), the trigger's subscription and the latest upstream value not yet
/// sampled.
@usableFromInline
struct SampleStateMachine<Downstream: Subscriber>: SideStateMachine {
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    var downstream: SideDownstream<Downstream>
    @usableFromInline
    var upstream = SideUpstream.awaitingSubscription
    @usableFromInline
    var trigger: (any Subscription)?
    /// The newest upstream value since the last sample.
    @usableFromInline
    var latest: Downstream.Input?

    @inlinable
    init(downstream: Downstream) {
        self.downstream = SideDownstream(downstream)
    }

    // MARK: Upstream

    /// The upstream's subscription: kept and asked for all its values; or cancelled.
    @inlinable
    mutating func receiveUpstreamSubscription(_ subscription: any Subscription) -> SubscriptionArrival {
        upstream.admit(subscription, live: downstream.live != nil)
    }

    @inlinable
    mutating func receiveUpstreamValue(_ value: Downstream.Input) {
        guard downstream.live != nil, case .subscribed = upstream else { return }
        latest = value
    }

    @inlinable
    mutating func receiveUpstreamCompletion(_ completion: Subscribers.Completion<Failure>) -> EndAction {
        guard downstream.live != nil, case .subscribed = upstream else { return .none }
        if case .failure = completion { return end(completion, cancelUpstream: false) }
        upstream = .finished
        return .none
    }

    // MARK: Trigger

    /// The trigger's subscription: kept and asked for all its values; or cancelled.
    @inlinable
    mutating func receiveTriggerSubscription(_ subscription: any Subscription) -> SubscriptionArrival {
        downstream.admit(subscription, into: &trigger, asking: .unlimited)
    }

    @usableFromInline
    enum SampleAction {
        /// Cancel `cancel` (when this value ends the stream), send `value` to the downstream,
        /// then report with ``SideDownstream/delivered(_:)``.
        case deliver(Box<Downstream>, Downstream.Input, cancel: [any Subscription])
        case end(EndAction)
    }

    /// The trigger sent a value (`finishing == false`) or finished (`finishing == true`).
    @inlinable
    mutating func receiveTrigger(finishing: Bool) -> SampleAction {
        guard downstream.live != nil else { return .end(.none) }
        if downstream.delivering {
            // Sent from inside the downstream: no sample now; finishing waits for it to return.
            return .end(finishing ? end(.finished, cancelUpstream: true) : .none)
        }
        let upstreamFinished: Bool
        if case .finished = upstream { upstreamFinished = true } else { upstreamFinished = false }
        let ends = finishing || upstreamFinished
        guard let value = latest, let target = downstream.claim() else {
            return .end(ends ? end(.finished, cancelUpstream: true) : .none)
        }
        latest = nil
        // When this value ends the stream, the completion is sent once its delivery returns.
        guard ends, case .cancel(let subscriptions, _) = end(.finished, cancelUpstream: true) else {
            return .deliver(target, value, cancel: [])
        }
        return .deliver(target, value, cancel: subscriptions)
    }

    @inlinable
    mutating func receiveTriggerFailure(_ failure: Failure) -> EndAction {
        guard downstream.live != nil else { return .none }
        trigger = nil
        return end(.failure(failure), cancelUpstream: true)
    }

    // MARK: Downstream

    /// The downstream cancelled: cancel what runs, and let the downstream go outside the lock.
    @inlinable
    mutating func cancel() -> EndAction {
        let subscriptions = [upstream.subscription, trigger].compactMap { $0 }
        upstream = .finished
        trigger = nil
        latest = nil
        return downstream.cancel(subscriptions)
    }

    // MARK: Ending

    /// What ends the stream.
    @usableFromInline
    typealias EndAction = SideEnding<Downstream>

    /// Ends the stream with `completion`, cancelling the trigger (and the upstream when
    /// `cancelUpstream`); while a value is being delivered the completion waits for it to return.
    @inlinable
    mutating func end(_ completion: Subscribers.Completion<Failure>, cancelUpstream: Bool) -> EndAction {
        let subscriptions = [cancelUpstream ? upstream.subscription : nil, trigger].compactMap { $0 }
        upstream = .finished
        trigger = nil
        latest = nil
        return downstream.end(completion, cancel: subscriptions)
    }
}
