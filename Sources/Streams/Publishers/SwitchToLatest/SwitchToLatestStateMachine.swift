/// A phase of a ``SwitchToLatestStateMachine``. Not generic (a failure is kept as `any Error`),
/// so that the per-value path copies it without value-witness calls.
@usableFromInline
enum SwitchToLatestPhase {
    /// The downstream has the subscription; the upstream's has not arrived.
    case awaitingSubscription
    /// The upstream may send more publishers.
    case subscribed(upstream: any Subscription)
    /// The upstream finished: waiting for the current child.
    case upstreamFinished
    /// A completion (`.finished` when `failure` is nil) is decided; the thread that holds the
    /// delivery turn sends it.
    case completing(failure: (any Error)?)
    /// Completed or cancelled.
    case terminated
}

/// The child publisher a ``SwitchToLatestStateMachine`` follows.
@usableFromInline
enum SwitchToLatestChild {
    case none
    /// Child `generation` is subscribed; its subscription has not arrived.
    case awaitingSubscription(generation: Int)
    case subscribed(generation: Int, any Subscription)

    @inlinable
    var subscription: SubscriptionStatus {
        if case .subscribed(_, let subscription) = self { .subscribed(subscription) } else { .terminated }
    }
}

/// What a child's value leads to in a ``SwitchToLatestStateMachine``.
@usableFromInline
enum SwitchToLatestValueStep {
    /// Ignored or queued: return `.none`.
    case none
    /// No demand is outstanding: trap, as Combine does.
    case withoutDemand
    /// This thread holds the turn: deliver the value, drain, and return the downstream's
    /// answer.
    case deliver(AnyObject)
    /// This thread holds the turn but the value was dropped: drain.
    case drain
    /// Another thread delivers: park, then report with `childValueAfterWait`.
    case wait(TurnWaiter)
}

/// The state of a ``SwitchToLatestSubscription``: a value with no lock and no callouts. Each
/// event method updates it and returns what the subscription must do once the lock is released.
///
/// Phases (of the outer stream), and the events that move between them:
/// - `awaitingSubscription`: the downstream has the subscription. The upstream's subscription →
///   `subscribed`.
/// - `subscribed`: the upstream may send more publishers. It finishing → `upstreamFinished`, or
///   completing when no child is active or pending.
/// - `upstreamFinished`: waiting for the current child; it finishing → completing.
/// - `completing`: a completion is decided while a thread is delivering to the downstream; that
///   thread sends it once its delivery returns → `terminated`.
/// - `terminated`: completed or cancelled; every event is ignored.
///
/// A failure (of the upstream or the current child) and `cancel` lead from every live phase to
/// completing or terminated. Beside the phase the machine keeps the current child (numbered by
/// generation, so that an older child's events are recognised and ignored), the downstream's
/// demand, and whose turn it is to deliver (``DeliveryTurn``): the downstream is called by one
/// thread at a time, a value arriving re-entrantly from inside it is queued and delivered next,
/// and a value from another thread waits for the turn (or is queued likewise, when waiting would
/// deadlock: ``DeliveryTurn/Claim/queue``).
///
/// `Resources` (the downstream) are held until terminated.
@usableFromInline
struct SwitchToLatestStateMachine<Value, Failure: Error> {
    @usableFromInline
    typealias Resources = AnyObject
    @usableFromInline
    typealias Completion = Subscribers.Completion<Failure>

    @usableFromInline
    var phase = SwitchToLatestPhase.awaitingSubscription
    @usableFromInline
    var child = SwitchToLatestChild.none
    /// The generation of the newest child.
    @usableFromInline
    var generation = 0
    /// Requested by the downstream and not yet delivered.
    @usableFromInline
    var demand = Subscribers.Demand.none
    /// Values that arrived while this thread was delivering, delivered next.
    @usableFromInline
    var queue: [Value] = []
    @usableFromInline
    var queueHead = 0
    @usableFromInline
    var turn = DeliveryTurn()
    @usableFromInline
    var resources: Resources?

    @inlinable
    init(resources: Resources) {
        self.resources = resources
    }

    /// Whether events are still processed.
    @inlinable
    var isLive: Bool {
        switch phase {
        case .awaitingSubscription, .subscribed, .upstreamFinished: true
        case .completing, .terminated: false
        }
    }

    /// Decides `completion` after cancelling `cancel`: sent at once when nobody is delivering,
    /// else left to the thread that is.
    @inlinable
    mutating func conclude(_ completion: Completion, cancel: [SubscriptionStatus]) -> ChildrenEnding {
        let released: Any = (child, queue)
        let cancel = cancel.compactMap(\.subscription)
        child = .none
        var failure: (any Error)?
        if case .failure(let error) = completion {
            failure = error
            queue = []
            queueHead = 0
        }
        guard !turn.isHeld else {
            phase = .completing(failure: failure)
            return ChildrenEnding(resources: nil, cancel: cancel, released: released)
        }
        phase = .terminated
        defer { resources = nil }
        return ChildrenEnding(resources: resources, cancel: cancel, released: released)
    }

    // MARK: Upstream

    /// The upstream's subscription arrived: true to ask it for unlimited publishers, false to
    /// cancel it.
    @inlinable
    mutating func upstreamSubscribed(_ subscription: any Subscription) -> Bool {
        guard case .awaitingSubscription = phase else { return false }
        phase = .subscribed(upstream: subscription)
        return true
    }

    /// What to do with a new child from upstream.
    @usableFromInline
    enum UpstreamChildAction {
        /// The upstream is done, or the stream is over: the child is ignored.
        case ignore
        /// Cancel `previous` (the current child's subscription), then subscribe to the new
        /// child with `generation`.
        case subscribe(generation: Int, previous: SubscriptionStatus)
    }

    /// The upstream sent a new child: the generation to subscribe it with and the previous
    /// child's subscription to cancel first.
    @inlinable
    mutating func upstreamSentChild() -> UpstreamChildAction {
        switch phase {
        case .awaitingSubscription, .subscribed:
            generation += 1
            defer { child = .awaitingSubscription(generation: generation) }
            return .subscribe(generation: generation, previous: child.subscription)
        case .upstreamFinished, .completing, .terminated:
            return .ignore
        }
    }

    /// The upstream finished: the completion to send, if no child is active or pending.
    @inlinable
    mutating func upstreamFinished() -> ChildrenEnding? {
        switch phase {
        case .awaitingSubscription, .subscribed:
            guard case .none = child else {
                phase = .upstreamFinished
                return nil
            }
            return conclude(.finished, cancel: [])
        case .upstreamFinished, .completing, .terminated:
            return nil
        }
    }

    /// The upstream failed: the current child is cancelled (the upstream is not) and the
    /// failure sent.
    @inlinable
    mutating func upstreamFailed(_ completion: Completion) -> ChildrenEnding? {
        switch phase {
        case .awaitingSubscription, .subscribed:
            return conclude(completion, cancel: [child.subscription])
        case .upstreamFinished, .completing, .terminated:
            return nil
        }
    }

    // MARK: Children

    /// Child `generation` sent its subscription: accepted (with the demand to ask it for, if
    /// any) when it is the current child and none is held, else nil to cancel it.
    @inlinable
    mutating func childSubscribed(_ generation: Int, _ subscription: any Subscription) -> Subscribers.Demand? {
        guard isLive, case .awaitingSubscription(generation) = child else { return nil }
        child = .subscribed(generation: generation, subscription)
        return demand
    }

    /// Whether `generation` is the child being followed.
    @inlinable
    func isCurrent(_ generation: Int) -> Bool {
        switch child {
        case .awaitingSubscription(let current), .subscribed(let current, _): current == generation
        case .none: false
        }
    }

    /// Child `generation` sent `value` on `thread` (before its subscription too).
    @inlinable
    mutating func childSentValue(_ value: Value, generation: Int, thread: Int) -> SwitchToLatestValueStep {
        guard isLive, isCurrent(generation) else { return .none }
        guard demand > 0 else { return .withoutDemand }
        if demand != .unlimited { demand -= 1 }
        switch turn.claim(for: thread) {
        case .granted:
            return deliver()
        case .reentrant, .queue:
            queue.append(value)
            return .none
        case .wait(let waiter):
            return .wait(waiter)
        }
    }

    /// The value a waiting thread brought, now that it has the turn (`granted`) or was sent away.
    @inlinable
    mutating func childValueAfterWait(_ value: Value, granted: Bool) -> SwitchToLatestValueStep {
        guard granted else { return .none }
        guard isLive else { return .drain }
        return deliver()
    }

    @inlinable
    func deliver() -> SwitchToLatestValueStep {
        guard let resources else {
            preconditionFailure("SwitchToLatestStateMachine: internal inconsistency: live without resources")
        }
        return .deliver(resources)
    }

    @usableFromInline
    enum DrainStep {
        /// Deliver a queued value; request what the downstream answers.
        case deliver(Resources, Value)
        /// Send the completion; the turn is let go.
        case complete(ChildrenEnding, failure: (any Error)?)
        /// The turn was handed to a waiting thread: wake it.
        case handOver(TurnWaiter)
        /// The turn was let go.
        case stop
    }

    /// The thread holding the turn is back from the downstream, which asked for `additional`
    /// (returned to the child): what it delivers next, or how it lets go of the turn.
    @inlinable
    mutating func nextDelivery(adding additional: Subscribers.Demand) -> DrainStep {
        switch phase {
        case .terminated:
            turn.letGo()
            return .stop
        case .completing(let failure):
            phase = .terminated
            let dismissed = turn.dismissAll()
            turn.letGo()
            defer { resources = nil }
            let released: Any = queue
            queue = []
            queueHead = 0
            return .complete(
                ChildrenEnding(resources: resources, cancel: [], dismissed: dismissed, released: released), failure: failure)
        case .awaitingSubscription, .subscribed, .upstreamFinished:
            break
        }
        demand += additional
        if queueHead < queue.count, let resources {
            let next = queue[queueHead]
            queueHead += 1
            if queueHead == queue.count {
                queue.removeAll(keepingCapacity: true)
                queueHead = 0
            }
            return .deliver(resources, next)
        }
        if let waiter = turn.pass() { return .handOver(waiter) }
        return .stop
    }

    /// The common case of ``nextDelivery(adding:)``, without its generic result: adds
    /// `additional` and lets go of the turn when nothing else is due. False (and nothing
    /// changed) when the drain must run.
    @inlinable
    mutating func letGoIfIdle(adding additional: Subscribers.Demand) -> Bool {
        guard isLive, queueHead == queue.count, !turn.hasWaiters else { return false }
        demand += additional
        turn.letGo()
        return true
    }

    @usableFromInline
    enum CompletionStep {
        case none
        /// The child completed before its subscription: trap, as Combine does.
        case beforeSubscription
        case end(ChildrenEnding)
    }

    /// Child `generation` finished: the stream finishes if the upstream has, else waits for
    /// the next child.
    @inlinable
    mutating func childFinished(_ generation: Int) -> CompletionStep {
        guard isLive else { return .none }
        switch child {
        case .awaitingSubscription(generation):
            return .beforeSubscription
        case .subscribed(generation, _):
            child = .none
            guard case .upstreamFinished = phase else { return .none }
            return .end(conclude(.finished, cancel: []))
        case .none, .awaitingSubscription, .subscribed:
            return .none
        }
    }

    /// Child `generation` failed: the upstream is cancelled (not the failed child) and the
    /// failure sent.
    @inlinable
    mutating func childFailed(_ generation: Int, _ completion: Completion) -> CompletionStep {
        guard isLive else { return .none }
        switch child {
        case .awaitingSubscription(generation):
            return .beforeSubscription
        case .subscribed(generation, _):
            var upstream = SubscriptionStatus.terminated
            if case .subscribed(let subscription) = phase { upstream = .subscribed(subscription) }
            return .end(conclude(completion, cancel: [upstream]))
        case .none, .awaitingSubscription, .subscribed:
            return .none
        }
    }

    // MARK: Downstream

    /// The downstream asked for `additional`: the child to pass it on to.
    @inlinable
    mutating func requested(_ additional: Subscribers.Demand) -> SubscriptionStatus {
        guard isLive else { return .terminated }
        demand += additional
        return child.subscription
    }

    /// The downstream cancelled: everything is let go and the subscriptions are cancelled, the
    /// current child's first, then the upstream's.
    @inlinable
    mutating func cancelled() -> ChildrenEnding? {
        var upstream = SubscriptionStatus.terminated
        switch phase {
        case .subscribed(let subscription):
            upstream = .subscribed(subscription)
        case .awaitingSubscription, .upstreamFinished, .completing:
            break
        case .terminated:
            return nil
        }
        let released: Any = (child, queue, resources as Any)
        let cancel = [child.subscription, upstream].compactMap(\.subscription)
        phase = .terminated
        child = .none
        queue = []
        queueHead = 0
        resources = nil
        return ChildrenEnding(resources: nil, cancel: cancel, dismissed: turn.dismissAll(), released: released)
    }
}
