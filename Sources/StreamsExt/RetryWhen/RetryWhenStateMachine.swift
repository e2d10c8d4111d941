import Streams

/// The state of a `retryWhen` subscription: a value with no lock and no callouts. Each event
/// updates it and returns what the subscription must do once the lock is released.
///
/// Beside the downstream's part (a ``SideDownstream``: the downstream while values may go to it,
/// its demand not yet met, whether a value is on its way and a completion waiting for it): the
/// current attempt's subscription (none while the first attempt has not answered, or the last one
/// failed and the trigger has not asked for another), the trigger's subscription, the number of
/// the current attempt (a late event of an earlier attempt is recognised by its number and
/// ignored), and whether an attempt is being subscribed (a trigger value meanwhile is taken up
/// by that subscribing loop instead of recursing). An attempt's failure goes to the trigger; its
/// finishing ends the stream, as does the trigger's completion.
@usableFromInline
struct RetryWhenStateMachine<Downstream: Subscriber>: SideStateMachine {
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    var downstream: SideDownstream<Downstream>
    /// The current attempt's subscription, once it has arrived.
    @usableFromInline
    var upstream: (any Subscription)?
    /// The trigger's subscription, once it has arrived.
    @usableFromInline
    var trigger: (any Subscription)?
    /// The number of the current attempt.
    @usableFromInline
    var attempt = 0
    /// Whether a thread is subscribing attempts to the upstream.
    @usableFromInline
    var subscribing = false
    /// Whether the trigger asked for another attempt while one was being subscribed.
    @usableFromInline
    var attemptPending = false

    @inlinable
    init(downstream: Downstream) {
        self.downstream = SideDownstream(downstream)
    }

    // MARK: Attempts

    @usableFromInline
    enum AttemptAction {
        /// Cancel `cancel` (the attempt it replaces), then subscribe attempt `number`.
        case subscribe(number: Int, cancel: (any Subscription)?)
        /// Cancel the attempt being replaced; the thread already subscribing makes the new one.
        case cancel(any Subscription)
        case none
    }

    /// A new attempt is wanted: the first one, or one the trigger asked for.
    @inlinable
    mutating func requestAttempt() -> AttemptAction {
        guard downstream.live != nil else { return .none }
        let replaced = upstream
        upstream = nil
        attempt += 1
        guard !subscribing else {
            attemptPending = true
            return replaced.map(AttemptAction.cancel) ?? .none
        }
        subscribing = true
        return .subscribe(number: attempt, cancel: replaced)
    }

    @usableFromInline
    enum AttemptSubscribedAction {
        /// The trigger asked for another attempt meanwhile: subscribe attempt `number`.
        case subscribe(number: Int)
        case done
    }

    /// The subscribing thread has handed an attempt its subscriber.
    @inlinable
    mutating func attemptSubscribed() -> AttemptSubscribedAction {
        if attemptPending, downstream.live != nil {
            attemptPending = false
            return .subscribe(number: attempt)
        }
        attemptPending = false
        subscribing = false
        return .done
    }

    /// Attempt `number`'s subscription: kept and asked for the demand not yet met; or cancelled
    /// when the attempt has been replaced.
    @inlinable
    mutating func receiveUpstreamSubscription(_ subscription: any Subscription, number: Int) -> SubscriptionArrival {
        guard number == attempt else { return .cancel }
        return downstream.admit(subscription, into: &upstream, asking: downstream.demand)
    }

    /// Attempt `number`'s value: the downstream to send it to, then report with
    /// ``SideDownstream/delivered(_:)``; `nil` to drop it.
    @inlinable
    mutating func receiveUpstreamValue(number: Int) -> Box<Downstream>? {
        guard number == attempt, upstream != nil else { return nil }
        return downstream.claim()
    }

    @usableFromInline
    enum UpstreamCompletionAction {
        /// Send the failure to the publisher of failures the trigger was made from.
        case notifyTrigger(Failure)
        case end(EndAction)
    }

    @inlinable
    mutating func receiveUpstreamCompletion(
        _ completion: Subscribers.Completion<Failure>, number: Int
    ) -> UpstreamCompletionAction {
        guard number == attempt, downstream.live != nil else { return .end(.none) }
        upstream = nil  // nothing of that attempt left to cancel
        switch completion {
        case .finished: return .end(end(.finished))
        case .failure(let failure): return .notifyTrigger(failure)
        }
    }

    // MARK: Trigger

    /// The trigger's subscription: kept and asked for all its values; or cancelled.
    @inlinable
    mutating func receiveTriggerSubscription(_ subscription: any Subscription) -> SubscriptionArrival {
        downstream.admit(subscription, into: &trigger, asking: .unlimited)
    }

    /// The trigger ended the stream with `completion`.
    @inlinable
    mutating func receiveTriggerCompletion(_ completion: Subscribers.Completion<Failure>) -> EndAction {
        guard downstream.live != nil else { return .none }
        trigger = nil
        return end(completion)
    }

    // MARK: Downstream

    @usableFromInline
    enum RequestAction {
        case forward(any Subscription)
        case none
    }

    @inlinable
    mutating func request(_ additional: Subscribers.Demand) -> RequestAction {
        guard downstream.request(additional), let upstream else { return .none }
        return .forward(upstream)
    }

    /// The downstream cancelled: cancel what runs, and let the downstream go outside the lock.
    @inlinable
    mutating func cancel() -> EndAction {
        let subscriptions = [upstream, trigger].compactMap { $0 }
        upstream = nil
        trigger = nil
        return downstream.cancel(subscriptions)
    }

    // MARK: Ending

    /// What ends the stream.
    @usableFromInline
    typealias EndAction = SideEnding<Downstream>

    /// Ends the stream with `completion`, cancelling what still runs; while a value is being
    /// delivered the completion waits for it to return.
    @inlinable
    mutating func end(_ completion: Subscribers.Completion<Failure>) -> EndAction {
        let subscriptions = [upstream, trigger].compactMap { $0 }
        upstream = nil
        trigger = nil
        return downstream.end(completion, cancel: subscriptions)
    }
}
