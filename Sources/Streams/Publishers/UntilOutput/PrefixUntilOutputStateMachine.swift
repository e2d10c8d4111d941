/// The state of `prefix(untilOutputFrom:)`'s subscription: a value with no lock and no callouts.
/// Each event updates it and returns what the subscription must do once the lock is released.
///
/// Phases, and the events that move between them (the trigger is subscribed first, then the
/// upstream):
/// - `awaitingSubscription`: the upstream's subscription → `subscribed` (it is handed downstream);
///   the trigger's value → `finishedEarly`; the upstream completing → `terminated`, unheard.
/// - `subscribed`: the trigger's value → `terminated` (`.finished` goes downstream, both sides are
///   cancelled); the upstream completing → `terminated` (the trigger is cancelled).
/// - `finishedEarly`: the upstream's subscription → `terminated`: it is cancelled, and the
///   downstream gets the operator's subscription, then `.finished`. (Combine sends that
///   `.finished` at once, to a downstream that has no subscription yet.)
///
/// `cancel()` leads from every phase to `terminated`. The trigger completing without a value is
/// ignored, as in Combine; after its value the trigger is cancelled (Combine leaves it running).
///
/// Deliveries to the downstream are serial: ``DeliveryTurn`` says which thread delivers. A
/// completion decided while a value is being delivered waits for that delivery to return:
/// queued, when it comes from inside the downstream; else its thread waits for the turn. A
/// value that finds the turn held by a thread waiting for the value's own thread (waiting would
/// deadlock) is queued for the holder, which delivers it, and asks the upstream for the demand
/// the downstream returns, before it lets the turn go.
@usableFromInline
struct PrefixUntilOutputStateMachine<Resources, Value, Failure: Error> {
    /// Where the trigger stands.
    @usableFromInline
    enum Trigger {
        case awaitingSubscription
        case subscribed(any Subscription)
        /// Completed without a value: ignored from now on.
        case terminated
    }

    @usableFromInline
    enum Phase {
        case awaitingSubscription(Trigger)
        case subscribed(upstream: any Subscription, trigger: Trigger)
        case finishedEarly
        /// Completed or cancelled: later events are ignored.
        case terminated
    }

    @usableFromInline
    var phase = Phase.awaitingSubscription(.awaitingSubscription)
    @usableFromInline
    var turn = DeliveryTurn()
    /// A completion queued behind the delivery the turn's holder is making.
    @usableFromInline
    var queuedCompletion: Subscribers.Completion<Failure>?
    /// Values queued for the turn's holder by threads that could not wait for it.
    @usableFromInline
    var queuedValues: [Value] = []
    /// The downstream; nil once a completion has been delivered or the downstream cancelled.
    @usableFromInline
    var resources: Resources?

    @inlinable
    init(resources: Resources) {
        self.resources = resources
    }

    // MARK: Trigger

    /// The trigger's subscription arrived: whether to keep it (and ask it for one value).
    @inlinable
    mutating func triggerSubscribed(_ subscription: any Subscription) -> Bool {
        switch phase {
        case .awaitingSubscription(.awaitingSubscription):
            phase = .awaitingSubscription(.subscribed(subscription))
        case .subscribed(let upstream, .awaitingSubscription):
            phase = .subscribed(upstream: upstream, trigger: .subscribed(subscription))
        case .awaitingSubscription, .subscribed, .finishedEarly, .terminated:
            return false
        }
        return true
    }

    /// The trigger completed: ignored, apart from letting go of its subscription.
    @inlinable
    mutating func triggerCompleted() {
        switch phase {
        case .awaitingSubscription(.subscribed), .awaitingSubscription(.awaitingSubscription):
            phase = .awaitingSubscription(.terminated)
        case .subscribed(let upstream, .subscribed), .subscribed(let upstream, .awaitingSubscription):
            phase = .subscribed(upstream: upstream, trigger: .terminated)
        case .awaitingSubscription(.terminated), .subscribed(_, .terminated), .finishedEarly, .terminated:
            return
        }
    }

    /// What to do once the lock is released when a completion is decided.
    @usableFromInline
    enum CompletionAction {
        case none
        /// Cancel `upstream` and `trigger`, then deliver the completion to the resources, if any.
        case deliver(Resources?, upstream: SubscriptionStatus, trigger: SubscriptionStatus)
        /// Cancel `upstream` and `trigger`; the completion is queued behind the delivery under
        /// way on this thread.
        case queued(upstream: SubscriptionStatus, trigger: SubscriptionStatus)
        /// Cancel `upstream` and `trigger`, then wait for the turn (another thread is
        /// delivering) and resume with ``resumeCompletion(_:)``.
        case wait(TurnWaiter, upstream: SubscriptionStatus, trigger: SubscriptionStatus)
    }

    /// The trigger sent a value (ignored unless its subscription is live): the output finishes.
    @inlinable
    mutating func triggerValue(thread: Int) -> CompletionAction {
        switch phase {
        case .awaitingSubscription(.subscribed(let trigger)):
            phase = .finishedEarly
            return .deliver(nil, upstream: .terminated, trigger: .subscribed(trigger))
        case .subscribed(let upstream, .subscribed(let trigger)):
            return finish(.finished, thread: thread, upstream: .subscribed(upstream), trigger: .subscribed(trigger))
        case .awaitingSubscription, .subscribed, .finishedEarly, .terminated:
            return .none
        }
    }

    // MARK: Upstream

    /// What to do with the upstream's subscription once the lock is released.
    @usableFromInline
    enum SubscriptionAction {
        /// Hand the operator's subscription downstream, holding the turn (then `endDelivery`).
        case handOver(Resources)
        /// Cancel it, hand the operator's subscription downstream, then `.finished`.
        case handOverAndFinish(Resources)
        case cancel
    }

    /// The upstream's subscription arrived.
    @inlinable
    mutating func upstreamSubscribed(_ subscription: any Subscription, thread: Int) -> SubscriptionAction {
        switch phase {
        case .awaitingSubscription(let trigger):
            guard let resources, case .granted = turn.claim(for: thread) else {
                preconditionFailure("PrefixUntilOutput: internal inconsistency, a delivery before the subscription")
            }
            phase = .subscribed(upstream: subscription, trigger: trigger)
            return .handOver(resources)
        case .finishedEarly:
            guard let resources = terminate() else { return .cancel }
            return .handOverAndFinish(resources)
        case .subscribed, .terminated:
            return .cancel
        }
    }

    /// How a value reaches the downstream.
    @usableFromInline
    enum Delivery {
        case ignore
        /// Deliver; `nested` when this thread is already delivering (the value was sent from
        /// inside the downstream), else end the delivery afterwards with `endDelivery()`.
        case deliver(Resources, nested: Bool)
        /// Wait for the turn, then resume with ``resumeDelivery(_:)``.
        case wait(TurnWaiter)
    }

    /// An upstream value arrived: passed on only while subscribed.
    @inlinable
    mutating func upstreamValue(_ value: Value, thread: Int) -> Delivery {
        guard case .subscribed = phase, let resources else { return .ignore }
        switch turn.claim(for: thread) {
        case .granted: return .deliver(resources, nested: false)
        case .reentrant: return .deliver(resources, nested: true)
        case .queue:
            queuedValues.append(value)
            return .ignore
        case .wait(let waiter): return .wait(waiter)
        }
    }

    /// What a thread that waited for the turn to deliver a value does.
    @usableFromInline
    enum ResumeDeliveryAction {
        /// Deliver the value to the downstream, then `endDelivery()`.
        case deliver(Resources)
        /// The value is not delivered: carry out what ending the turn requires.
        case end(EndAction)
    }

    /// A thread that waited for the turn to deliver a value woke up: the downstream to deliver
    /// to (then `endDelivery()`), or what ending the turn requires.
    @inlinable
    mutating func resumeDelivery(_ waiter: TurnWaiter) -> ResumeDeliveryAction {
        guard waiter.granted else { return .end(.none) }
        guard case .subscribed = phase, let resources else { return .end(endDelivery()) }
        return .deliver(resources)
    }

    /// The upstream completed: forwarded while subscribed (the trigger is cancelled); before the
    /// subscription the trigger is cancelled and the completion is not heard.
    @inlinable
    mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>, thread: Int) -> CompletionAction {
        switch phase {
        case .awaitingSubscription(let trigger):
            terminate()
            return .deliver(nil, upstream: .terminated, trigger: trigger.status)
        case .subscribed(_, let trigger):
            return finish(completion, thread: thread, upstream: .terminated, trigger: trigger.status)
        case .finishedEarly, .terminated:
            return .none
        }
    }

    // MARK: Delivery

    /// Ends the output with `completion`: now if nobody is delivering, queued behind this
    /// thread's delivery, or after waiting for another thread's.
    @inlinable
    mutating func finish(
        _ completion: Subscribers.Completion<Failure>, thread: Int, upstream: SubscriptionStatus,
        trigger: SubscriptionStatus
    ) -> CompletionAction {
        phase = .terminated
        switch turn.claim(for: thread) {
        case .granted:
            turn.letGo()
            return .deliver(takeResources(), upstream: upstream, trigger: trigger)
        case .reentrant, .queue:
            queuedCompletion = completion
            return .queued(upstream: upstream, trigger: trigger)
        case .wait(let waiter):
            return .wait(waiter, upstream: upstream, trigger: trigger)
        }
    }

    /// What a thread that waited for the turn to deliver a completion does.
    @usableFromInline
    enum ResumeCompletionAction {
        /// The turn was not granted: nothing.
        case none
        /// Wake `dismissed`, then send the completion to the downstream, if it is still there.
        case deliver(Resources?, dismissed: ArraySlice<TurnWaiter>)
    }

    /// A thread that waited for the turn to deliver a completion woke up: the downstream to
    /// deliver it to, and the waiters to send away.
    @inlinable
    mutating func resumeCompletion(_ waiter: TurnWaiter) -> ResumeCompletionAction {
        guard waiter.granted else { return .none }
        let dismissed = turn.dismissAll()
        turn.letGo()
        return .deliver(takeResources(), dismissed: dismissed)
    }

    /// What ending a delivery requires once the lock is released.
    @usableFromInline
    enum EndAction {
        case none
        /// Wake the thread the turn was handed to.
        case wake(TurnWaiter)
        /// Deliver a queued value, ask `upstream` for the demand the downstream returns, then
        /// end the delivery again.
        case deliver(Resources, Value, upstream: SubscriptionStatus)
        /// Deliver the queued completion, and send the waiters away.
        case complete(Resources, Subscribers.Completion<Failure>, ArraySlice<TurnWaiter>)
    }

    /// The delivery that held the turn returned: deliver the values queued behind it, then the
    /// completion queued behind them, or hand the turn to the next waiting thread, or let it go.
    @inlinable
    mutating func endDelivery() -> EndAction {
        if !queuedValues.isEmpty, let resources {
            return .deliver(resources, queuedValues.removeFirst(), upstream: request())
        }
        if let completion = queuedCompletion {
            queuedCompletion = nil
            let dismissed = turn.dismissAll()
            turn.letGo()
            guard let resources = takeResources() else { return .none }
            return .complete(resources, completion, dismissed)
        }
        guard let waiter = turn.pass() else { return .none }
        return .wake(waiter)
    }

    // MARK: Subscription

    /// The downstream requested `demand` (`.none` is allowed): the upstream subscription to
    /// forward it to while subscribed.
    @inlinable
    func request() -> SubscriptionStatus {
        guard case .subscribed(let upstream, _) = phase else { return .terminated }
        return .subscribed(upstream)
    }

    /// What a cancel does once the lock is released: it always ends the stage.
    @usableFromInline
    enum CancelAction {
        /// Cancel `upstream` and `trigger` (each only if subscribed); `released` (the resources)
        /// and `dropped` (the queued values) are let go outside the lock.
        case end(upstream: SubscriptionStatus, trigger: SubscriptionStatus, released: Resources?, dropped: [Value])
    }

    /// The downstream cancelled: the subscriptions to cancel and the resources and queued values
    /// to let go of outside the lock. A completion queued behind a delivery is dropped.
    @inlinable
    mutating func cancel() -> CancelAction {
        let upstream: SubscriptionStatus
        let trigger: SubscriptionStatus
        switch phase {
        case .awaitingSubscription(let current):
            (upstream, trigger) = (.terminated, current.status)
        case .subscribed(let current, let currentTrigger):
            (upstream, trigger) = (.subscribed(current), currentTrigger.status)
        case .finishedEarly, .terminated:
            (upstream, trigger) = (.terminated, .terminated)
        }
        phase = .terminated
        queuedCompletion = nil
        defer { queuedValues = [] }
        return .end(upstream: upstream, trigger: trigger, released: takeResources(), dropped: queuedValues)
    }

    /// Marks the machine terminal and lets go of the resources.
    @inlinable
    @discardableResult
    mutating func terminate() -> Resources? {
        phase = .terminated
        return takeResources()
    }

    /// Lets go of the resources, returned to be used or released outside the lock.
    @inlinable
    mutating func takeResources() -> Resources? {
        defer { resources = nil }
        return resources
    }
}

extension PrefixUntilOutputStateMachine.Trigger {
    /// The trigger's subscription, as a status.
    @inlinable
    var status: SubscriptionStatus {
        if case .subscribed(let subscription) = self { .subscribed(subscription) } else { .terminated }
    }
}
