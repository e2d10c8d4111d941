/// The state of a ``RescheduledSubscription`` (`receive(on:)` and `delay`): a value with no lock
/// and no callouts. Each event method updates it and returns what the subscription must do once
/// the lock is released.
///
/// Phases, and the events that move between them:
/// - `awaitingSubscription`: the upstream subscription → `subscribed`. A `cancel()` here is a
///   no-op, so a subscription that arrives later is still accepted, as in Combine.
/// - `subscribed`: each value is queued and one scheduled action is made for it; the completion
///   is queued the same way → `completing`; `cancel()` → `cancelled`, or `terminated` when no
///   scheduled action is left to run.
/// - `completing`: the completion is queued and will be delivered whatever happens meanwhile
///   (Combine delivers a scheduled completion after a `cancel()`); later events and `cancel()`
///   are ignored. The upstream's subscription is kept, as in Combine: the demand the downstream
///   returns for a value scheduled before the completion is still requested from it. Delivering
///   the completion → `terminated`.
/// - `cancelled`: the queued events were dropped; the downstream is kept until the scheduled
///   actions made before the cancel have run (Combine's scheduled work holds its pipeline), then
///   → `terminated`.
/// - `terminated`: nothing is held.
///
/// Every scheduled action delivers the *oldest* due event rather than its own, and only one
/// action delivers at a time (`delivering`); one that runs meanwhile leaves its event to it. On a
/// serial scheduler each action delivers its own event; on a concurrent one the events still
/// arrive one at a time and in order, and the completion never overtakes a value.
@usableFromInline
struct RescheduledStateMachine<Downstream: Subscriber> {
    @usableFromInline
    enum Event {
        case value(Downstream.Input)
        case completion(Subscribers.Completion<Downstream.Failure>)
    }

    @usableFromInline
    enum Phase {
        case awaitingSubscription(Box<Downstream>)
        case subscribed(upstream: any Subscription, downstream: Box<Downstream>)
        case completing(upstream: any Subscription, downstream: Box<Downstream>)
        /// `pending` scheduled actions have yet to run.
        case cancelled(Box<Downstream>, pending: Int)
        case terminated
    }

    /// An event to hand to the downstream, outside the lock.
    @usableFromInline
    enum Delivery {
        case value(Downstream.Input, Box<Downstream>)
        case completion(Subscribers.Completion<Downstream.Failure>, Box<Downstream>)
    }

    /// What a scheduled action that has run must do.
    @usableFromInline
    enum ActionOutcome {
        /// Deliver, then keep delivering while ``delivered(_:)`` has more.
        case deliver(Delivery)
        /// The last action after a cancel has run: let go of the downstream.
        case release(Box<Downstream>)
        /// Another action is delivering and will deliver this one's event.
        case none
    }

    /// What follows a delivered value: the upstream to ask for the demand the downstream
    /// returned (also while the completion is pending; none once cancelled), and the next due
    /// event.
    @usableFromInline
    struct AfterDelivery {
        @usableFromInline
        let request: (any Subscription)?
        @usableFromInline
        let next: Delivery?

        @inlinable
        init(request: (any Subscription)?, next: Delivery?) {
            self.request = request
            self.next = next
        }
    }

    /// What a cancel let go of, to be used or released outside the lock.
    @usableFromInline
    struct Cancelled {
        /// To be cancelled.
        @usableFromInline
        let upstream: any Subscription
        /// Released, unless scheduled actions still hold it.
        @usableFromInline
        let downstream: Box<Downstream>?
        @usableFromInline
        let dropped: [Event]

        @inlinable
        init(upstream: any Subscription, downstream: Box<Downstream>?, dropped: [Event]) {
            self.upstream = upstream
            self.downstream = downstream
            self.dropped = dropped
        }
    }

    @usableFromInline
    var phase: Phase
    /// Scheduled events not yet delivered, oldest at `head`.
    @usableFromInline
    var events: [Event] = []
    @usableFromInline
    var head = 0
    /// Actions that have run whose events are not delivered yet: that many of the oldest events
    /// are due.
    @usableFromInline
    var due = 0
    /// An action is delivering.
    @usableFromInline
    var delivering = false

    @inlinable
    init(downstream: Downstream) {
        phase = .awaitingSubscription(Box(downstream))
    }

    /// Scheduled actions that have not run yet: one per queued event, less those that ran.
    @inlinable
    var pendingActions: Int { events.count - head - due }

    // MARK: Events

    /// The upstream subscription arrived: the downstream to hand the subscription to, or nil
    /// when it must be cancelled (a second subscription).
    @inlinable
    mutating func receiveSubscription(_ upstream: any Subscription) -> Box<Downstream>? {
        guard case .awaitingSubscription(let downstream) = phase else { return nil }
        phase = .subscribed(upstream: upstream, downstream: downstream)
        return downstream
    }

    /// A value arrived: whether to schedule an action for it (only while subscribed).
    @inlinable
    mutating func receive(_ input: Downstream.Input) -> Bool {
        guard case .subscribed = phase else { return false }
        events.append(.value(input))
        return true
    }

    /// The completion arrived: whether to schedule an action for it (only while subscribed).
    @inlinable
    mutating func receive(completion: Subscribers.Completion<Downstream.Failure>) -> Bool {
        guard case .subscribed(let upstream, let downstream) = phase else { return false }
        phase = .completing(upstream: upstream, downstream: downstream)
        events.append(.completion(completion))
        return true
    }

    /// A scheduled action has run.
    @inlinable
    mutating func actionRan() -> ActionOutcome {
        switch phase {
        case .subscribed, .completing:
            due += 1
            guard !delivering else { return .none }
            delivering = true
            return nextDelivery().map(ActionOutcome.deliver) ?? .none
        case .cancelled(let downstream, let pending):
            guard pending > 1 else {
                phase = .terminated
                return .release(downstream)
            }
            phase = .cancelled(downstream, pending: pending - 1)
            return .none
        case .awaitingSubscription, .terminated:
            preconditionFailure("RescheduledStateMachine: internal inconsistency: an action ran that was never scheduled")
        }
    }

    /// A value or the completion has been delivered; `demand` is what the downstream returned.
    @inlinable
    mutating func delivered(_ demand: Subscribers.Demand) -> AfterDelivery {
        var request: (any Subscription)?
        if demand > 0 {
            switch phase {
            case .subscribed(let upstream, _), .completing(let upstream, _): request = upstream
            case .awaitingSubscription, .cancelled, .terminated: break
            }
        }
        return AfterDelivery(request: request, next: nextDelivery())
    }

    /// Takes the oldest due event, or ends the delivery.
    @inlinable
    mutating func nextDelivery() -> Delivery? {
        guard due > 0, head < events.count else {
            delivering = false
            return nil
        }
        due -= 1
        let event = events[head]
        head += 1
        if head == events.count {
            events.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32, head * 2 >= events.count {
            events.removeFirst(head)
            head = 0
        }
        switch event {
        case .value(let input):
            switch phase {
            case .subscribed(_, let downstream), .completing(_, let downstream):
                return .value(input, downstream)
            case .awaitingSubscription, .cancelled, .terminated:
                preconditionFailure("RescheduledStateMachine: internal inconsistency: a value was due in the wrong phase")
            }
        case .completion(let completion):
            guard case .completing(_, let downstream) = phase else {
                preconditionFailure("RescheduledStateMachine: internal inconsistency: a completion was due in the wrong phase")
            }
            phase = .terminated
            return .completion(completion, downstream)
        }
    }

    /// The downstream's request: the upstream to forward it to, while subscribed.
    @inlinable
    func request() -> (any Subscription)? {
        guard case .subscribed(let upstream, _) = phase else { return nil }
        return upstream
    }

    /// The downstream cancelled: acts only while subscribed.
    @inlinable
    mutating func cancel() -> Cancelled? {
        guard case .subscribed(let upstream, let downstream) = phase else { return nil }
        let pending = pendingActions
        let dropped = events
        events = []
        head = 0
        due = 0
        if pending == 0 {
            phase = .terminated
            return Cancelled(upstream: upstream, downstream: downstream, dropped: dropped)
        }
        phase = .cancelled(downstream, pending: pending)
        return Cancelled(upstream: upstream, downstream: nil, dropped: dropped)
    }
}
