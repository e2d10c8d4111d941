import Streams

/// The state of a `retryWhen` subscription: a value with no lock and no callouts. Each event
/// updates it and returns what the subscription must do once the lock is released.
///
/// Phases:
/// - `awaitingSubscription(downstream)`: no attempt at the upstream holds a subscription: the
///   first one has not been made or has not answered yet, or the last one failed and the trigger
///   has not asked for another. An attempt's subscription → `subscribed`.
/// - `subscribed(downstream, upstream)`: an attempt runs. Its failure goes to the trigger →
///   `awaitingSubscription`; its finishing ends the stream.
/// - `completing(downstream, completion)`: the stream ended while a value was on its way
///   downstream; `completion` is sent once that value's delivery returns.
/// - `terminated`: completed or cancelled; everything has been let go and is ignored.
///
/// Beside the phase: the trigger's subscription, the number of the current attempt (a late event
/// of an earlier attempt is recognised by its number and ignored), the downstream's demand not yet
/// met, whether an attempt is being subscribed (a trigger value meanwhile is taken up by that
/// subscribing loop instead of recursing) and whether a value is being delivered.
@usableFromInline
struct RetryWhenStateMachine<Downstream: Subscriber> {
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    enum Phase {
        case awaitingSubscription(Box<Downstream>)
        case subscribed(Box<Downstream>, upstream: any Subscription)
        case completing(Box<Downstream>, Subscribers.Completion<Failure>)
        case terminated
    }

    @usableFromInline
    var phase: Phase
    /// The trigger's subscription, once it has arrived.
    @usableFromInline
    var trigger: (any Subscription)?
    /// The number of the current attempt.
    @usableFromInline
    var attempt = 0
    /// Requested by the downstream and not yet delivered.
    @usableFromInline
    var demand = Subscribers.Demand.none
    /// Whether a thread is subscribing attempts to the upstream.
    @usableFromInline
    var subscribing = false
    /// Whether the trigger asked for another attempt while one was being subscribed.
    @usableFromInline
    var attemptPending = false
    /// Whether a value is on its way downstream (outside the lock).
    @usableFromInline
    var delivering = false

    @inlinable
    init(downstream: Downstream) {
        phase = .awaitingSubscription(Box(downstream))
    }

    /// The downstream while the stream is live.
    @inlinable
    var downstream: Box<Downstream>? {
        switch phase {
        case .awaitingSubscription(let downstream), .subscribed(let downstream, _): downstream
        case .completing, .terminated: nil
        }
    }

    @inlinable
    var upstream: (any Subscription)? {
        if case .subscribed(_, let upstream) = phase { upstream } else { nil }
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
        guard let downstream else { return .none }
        let replaced = upstream
        phase = .awaitingSubscription(downstream)
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
        if attemptPending, downstream != nil {
            attemptPending = false
            return .subscribe(number: attempt)
        }
        attemptPending = false
        subscribing = false
        return .done
    }

    @usableFromInline
    enum UpstreamSubscriptionAction {
        /// Ask it for the demand not yet met (nothing if `.none`).
        case request(Subscribers.Demand)
        case cancel
    }

    @inlinable
    mutating func receiveUpstreamSubscription(_ subscription: any Subscription, number: Int) -> UpstreamSubscriptionAction {
        guard number == attempt, case .awaitingSubscription(let downstream) = phase else { return .cancel }
        phase = .subscribed(downstream, upstream: subscription)
        return .request(demand)
    }

    @usableFromInline
    enum UpstreamValueAction {
        /// Send the value to this downstream, then report with ``delivered(_:)``.
        case deliver(Box<Downstream>)
        case none
    }

    @inlinable
    mutating func receiveUpstreamValue(number: Int) -> UpstreamValueAction {
        guard number == attempt, case .subscribed(let downstream, _) = phase, demand > 0 else { return .none }
        demand -= 1
        delivering = true
        return .deliver(downstream)
    }

    /// A value was delivered and the downstream asked for `additional` more.
    @inlinable
    mutating func delivered(_ additional: Subscribers.Demand) -> EndAction {
        delivering = false
        if case .completing(let downstream, let completion) = phase {
            phase = .terminated
            return .complete(downstream, completion, cancel: [])
        }
        if downstream != nil { demand += additional }
        return .none
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
        guard number == attempt, let downstream else { return .end(.none) }
        switch completion {
        case .finished:
            phase = .awaitingSubscription(downstream)  // nothing of that attempt left to cancel
            return .end(end(.finished, downstream: downstream))
        case .failure(let failure):
            phase = .awaitingSubscription(downstream)
            return .notifyTrigger(failure)
        }
    }

    // MARK: Trigger

    @usableFromInline
    enum TriggerSubscriptionAction {
        case requestUnlimited
        case cancel
    }

    @inlinable
    mutating func receiveTriggerSubscription(_ subscription: any Subscription) -> TriggerSubscriptionAction {
        guard downstream != nil, trigger == nil else { return .cancel }
        trigger = subscription
        return .requestUnlimited
    }

    /// The trigger ended the stream with `completion`.
    @inlinable
    mutating func receiveTriggerCompletion(_ completion: Subscribers.Completion<Failure>) -> EndAction {
        guard let downstream else { return .none }
        trigger = nil
        return end(completion, downstream: downstream)
    }

    // MARK: Downstream

    @usableFromInline
    enum RequestAction {
        case forward(any Subscription)
        case none
    }

    @inlinable
    mutating func request(_ additional: Subscribers.Demand) -> RequestAction {
        guard downstream != nil else { return .none }
        demand += additional
        return upstream.map(RequestAction.forward) ?? .none
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

    /// Ends the stream with `completion`, cancelling what still runs; while a value is being
    /// delivered the completion waits for it to return.
    @inlinable
    mutating func end(_ completion: Subscribers.Completion<Failure>, downstream: Box<Downstream>) -> EndAction {
        let subscriptions = [upstream, trigger].compactMap { $0 }
        trigger = nil
        guard !delivering else {
            phase = .completing(downstream, completion)
            return .cancel(subscriptions)
        }
        phase = .terminated
        return .complete(downstream, completion, cancel: subscriptions)
    }
}
