/// The state of a `debounce` subscription: a value with no lock and no callouts. Each event
/// updates it and returns what the subscription must do once the lock is released.
///
/// Phases:
/// - `awaitingSubscription(downstream)`: the upstream subscription → `subscribed`; `cancel` is a no-op, as in
///   Combine, so a subscription arriving later is still accepted.
/// - `subscribed(downstream, upstream)`: each value becomes the pending one and gets a new timer;
///   the timer of the pending value sends it (if the downstream has demand) or drops it; the
///   upstream's completion → `completing` (the pending value is dropped, or kept with
///   `deliversPendingValueOnFinish`); `cancel` → `terminated`.
/// - `completing(downstream, last)`: the completion is on its way through the scheduler; its
///   delivery or `cancel` → `terminated`.
/// - `terminated`: everything has been let go.
///
/// What every value changes (the pending value, its number and its timer) and the downstream's
/// demand sit beside the phase rather than in its payload: updating a payload holding the
/// upstream subscription would copy that existential in and out on every value. The pending
/// value and the timer are only ever set while `subscribed`. Each value gets a number
/// (`generation`): a timer that reports for a value that was replaced is recognised as stale.
@usableFromInline
struct DebounceStateMachine<Downstream: Subscriber> {
    @usableFromInline
    typealias Value = Downstream.Input

    @usableFromInline
    enum Phase {
        /// Waiting for the upstream subscription; requests made meanwhile are not kept.
        case awaitingSubscription(Box<Downstream>)
        case subscribed(Box<Downstream>, upstream: any Subscription)
        /// The upstream completed; `last` is the pending value to send before `.finished`.
        case completing(Box<Downstream>, last: Value?)
        case terminated
    }

    @usableFromInline
    var phase: Phase
    /// What the downstream asked for and was not sent yet (subscribed and completing).
    @usableFromInline
    var demand = Subscribers.Demand.none
    /// The value waiting for its time (subscribed).
    @usableFromInline
    var pending: Value?
    /// The number of the newest value.
    @usableFromInline
    var generation = 0
    /// The timer of the newest value, once armed (subscribed).
    @usableFromInline
    var timer: (any Cancellable)?

    @inlinable
    init(downstream: Downstream) {
        phase = .awaitingSubscription(Box(downstream))
    }

    @inlinable
    var isSubscribed: Bool {
        if case .subscribed = phase { return true }
        return false
    }

    /// An upstream subscription: the downstream to hand it to, or nil to cancel it (a second one).
    @inlinable
    mutating func receiveSubscription(_ upstream: any Subscription) -> Box<Downstream>? {
        guard case .awaitingSubscription(let downstream) = phase else { return nil }
        phase = .subscribed(downstream, upstream: upstream)
        return downstream
    }

    /// A value: its number, for its timer, or nil when it is ignored.
    @inlinable
    mutating func receiveValue(_ value: Value) -> Int? {
        guard isSubscribed else { return nil }
        pending = value
        generation += 1
        return generation
    }

    /// The timer of value `generation` was made: the timer to cancel, the previous one or, when
    /// the value was replaced or already handled, the new one.
    @inlinable
    mutating func armed(_ generation: Int, timer: any Cancellable) -> (any Cancellable)? {
        if case .awaitingSubscription = phase {
            preconditionFailure("DebounceStateMachine: internal inconsistency: armed before subscribed")
        }
        guard isSubscribed, self.generation == generation, pending != nil else { return timer }
        defer { self.timer = timer }
        return self.timer
    }

    /// What to do when the timer of a value fires.
    @usableFromInline
    enum FireAction {
        /// The value was replaced or already handled: nothing.
        case none
        /// No demand: the value is dropped; cancel `timer`, if any.
        case drop(timer: (any Cancellable)?)
        /// Cancel `timer`, if any, then send `value` to `downstream`.
        case deliver(Box<Downstream>, Value, timer: (any Cancellable)?)
    }

    /// The timer of value `generation` fired: the timer to cancel, and the value to send when
    /// there is demand for it.
    @inlinable
    mutating func fired(_ generation: Int) -> FireAction {
        guard case .subscribed(let downstream, _) = phase, self.generation == generation, let value = pending else {
            return .none
        }
        let timer = self.timer
        self.timer = nil
        pending = nil
        guard demand > 0 else { return .drop(timer: timer) }
        demand -= 1
        return .deliver(downstream, value, timer: timer)
    }

    /// The downstream asked for `demand`, by a request or from `receive(_:)`.
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) {
        switch phase {
        case .subscribed, .completing:
            self.demand += demand
        case .awaitingSubscription, .terminated:
            break
        }
    }

    /// What to do with a completion from upstream.
    @usableFromInline
    enum CompletionAction {
        /// Not subscribed: the completion is ignored.
        case ignore
        /// Cancel `timer`, if any, and schedule the completion.
        case schedule(cancelling: (any Cancellable)?)
    }

    /// The upstream completed: the timer to cancel, or `.ignore` when the completion is ignored.
    /// `keepLast`: keep the pending value to send before `.finished`.
    @inlinable
    mutating func receiveCompletion(keepLast: Bool) -> CompletionAction {
        guard case .subscribed(let downstream, _) = phase else { return .ignore }
        phase = .completing(downstream, last: keepLast ? pending : nil)
        pending = nil
        defer { timer = nil }
        return .schedule(cancelling: timer)
    }

    /// What the scheduled completion does.
    @usableFromInline
    enum DeliverCompletionAction {
        /// Cancelled meanwhile: nothing.
        case none
        /// Send `last`, if any, then the completion to `downstream`.
        case deliver(Box<Downstream>, last: Value?)
    }

    /// The scheduled completion is due: the downstream, and the last value if there is demand for it.
    @inlinable
    mutating func deliverCompletion() -> DeliverCompletionAction {
        guard case .completing(let downstream, let last) = phase else { return .none }
        phase = .terminated
        return .deliver(downstream, last: demand > 0 ? last : nil)
    }

    /// What a cancel does once the lock is released.
    @usableFromInline
    enum CancelAction {
        /// Before the upstream subscription, or already terminated: nothing.
        case none
        /// Cancel `timer`, if any, and `upstream`; `released` (the phase and the pending value)
        /// is let go outside the lock.
        case cancel(timer: (any Cancellable)?, upstream: any Subscription, released: Phase, pending: Value?)
        /// The completion was on its way: only let go of `released` outside the lock.
        case release(Phase)
    }

    /// The downstream cancelled: what to cancel and release outside the lock. Before the upstream
    /// subscription it changes nothing.
    @inlinable
    mutating func cancel() -> CancelAction {
        switch phase {
        case .awaitingSubscription, .terminated:
            return .none
        case .subscribed(_, let upstream):
            defer {
                phase = .terminated
                timer = nil
                pending = nil
            }
            return .cancel(timer: timer, upstream: upstream, released: phase, pending: pending)
        case .completing:
            defer { phase = .terminated }
            return .release(phase)
        }
    }

    /// The mirror's children: downstream, downstreamDemand, currentValue.
    @inlinable
    var reflected: (downstream: Downstream?, demand: Subscribers.Demand, currentValue: Value?) {
        switch phase {
        case .awaitingSubscription(let downstream): (downstream.value, .none, nil)
        case .subscribed(let downstream, _): (downstream.value, demand, pending)
        case .completing(let downstream, let last): (downstream.value, demand, last)
        case .terminated: (nil, .none, nil)
        }
    }
}
