/// The state of a `debounce` subscription: a value with no lock and no callouts. Each event
/// updates it and returns what the subscription must do once the lock is released.
///
/// Phases:
/// - `awaiting`: the upstream subscription → `subscribed`; `cancel` is a no-op, as in Combine,
///   so a subscription arriving later is still accepted.
/// - `subscribed`: each value becomes the pending one and gets a new timer; the timer of the
///   pending value sends it (if the downstream has demand) or drops it; the upstream's
///   completion → `completing` (the pending value is dropped, or kept with
///   `deliversPendingValueOnFinish`); `cancel` → `terminated`.
/// - `completing`: the completion is on its way through the scheduler; its delivery or `cancel`
///   → `terminated`.
/// - `terminated`: everything has been let go.
///
/// Each value gets a number (`generation`): a timer that reports for a value that was replaced is
/// recognised as stale.
@usableFromInline
struct DebounceStateMachine<Downstream: Subscriber> {
    @usableFromInline
    typealias Value = Downstream.Input

    @usableFromInline
    struct Subscribed {
        @usableFromInline
        let downstream: Box<Downstream>
        @usableFromInline
        let upstream: any Subscription
        @usableFromInline
        var demand: Subscribers.Demand
        /// The value waiting for its time, and its number.
        @usableFromInline
        var pending: Value?
        @usableFromInline
        var generation: Int
        /// The timer of the newest value, once armed.
        @usableFromInline
        var timer: (any Cancellable)?

        @inlinable
        init(downstream: Box<Downstream>, upstream: any Subscription, demand: Subscribers.Demand) {
            self.downstream = downstream
            self.upstream = upstream
            self.demand = demand
            generation = 0
        }
    }

    @usableFromInline
    enum Phase {
        /// Waiting for the upstream subscription; requests made meanwhile are not kept.
        case awaiting(Box<Downstream>)
        case subscribed(Subscribed)
        /// The upstream completed; `last` is the pending value to send before `.finished`.
        case completing(Box<Downstream>, demand: Subscribers.Demand, last: Value?)
        case terminated
    }

    @usableFromInline
    var phase: Phase

    @inlinable
    init(downstream: Downstream) {
        phase = .awaiting(Box(downstream))
    }

    /// An upstream subscription: the downstream to hand it to, or nil to cancel it (a second one).
    @inlinable
    mutating func receiveSubscription(_ upstream: any Subscription) -> Box<Downstream>? {
        guard case .awaiting(let downstream) = phase else { return nil }
        phase = .subscribed(Subscribed(downstream: downstream, upstream: upstream, demand: .none))
        return downstream
    }

    /// A value: its number, for its timer, or nil when it is ignored.
    @inlinable
    mutating func receiveValue(_ value: Value) -> Int? {
        guard case .subscribed(var state) = phase else { return nil }
        state.pending = value
        state.generation += 1
        phase = .subscribed(state)
        return state.generation
    }

    /// The timer of value `generation` was made: the timer to cancel, the previous one or, when
    /// the value was replaced or already handled, the new one.
    @inlinable
    mutating func armed(_ generation: Int, timer: any Cancellable) -> (any Cancellable)? {
        if case .awaiting = phase { preconditionFailure("DebounceStateMachine: internal inconsistency: armed before subscribed") }
        guard case .subscribed(var state) = phase, state.generation == generation, state.pending != nil else { return timer }
        let previous = state.timer
        state.timer = timer
        phase = .subscribed(state)
        return previous
    }

    /// The timer of value `generation` fired. `timer`: the timer to cancel; `delivery`: the
    /// downstream and the value when there is demand for it.
    @inlinable
    mutating func fired(_ generation: Int) -> (timer: (any Cancellable)?, delivery: (Box<Downstream>, Value)?) {
        guard case .subscribed(var state) = phase, state.generation == generation, let value = state.pending else {
            return (nil, nil)
        }
        let timer = state.timer
        state.timer = nil
        state.pending = nil
        guard state.demand > 0 else {
            phase = .subscribed(state)
            return (timer, nil)
        }
        state.demand -= 1
        phase = .subscribed(state)
        return (timer, (state.downstream, value))
    }

    /// The downstream asked for `demand`, by a request or from `receive(_:)`.
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) {
        switch phase {
        case .subscribed(var state):
            state.demand += demand
            phase = .subscribed(state)
        case .completing(let downstream, let current, let last):
            phase = .completing(downstream, demand: current + demand, last: last)
        case .awaiting, .terminated:
            break
        }
    }

    /// The upstream completed: the timer to cancel, or nil when the completion is ignored.
    /// `keepLast`: keep the pending value to send before `.finished`.
    @inlinable
    mutating func receiveCompletion(keepLast: Bool) -> (any Cancellable)?? {
        guard case .subscribed(let state) = phase else { return nil }
        phase = .completing(state.downstream, demand: state.demand, last: keepLast ? state.pending : nil)
        return .some(state.timer)
    }

    /// The scheduled completion is due: the downstream, and the last value if there is demand for it.
    @inlinable
    mutating func deliverCompletion() -> (downstream: Box<Downstream>, last: Value?)? {
        guard case .completing(let downstream, let demand, let last) = phase else { return nil }
        phase = .terminated
        return (downstream, demand > 0 ? last : nil)
    }

    /// The downstream cancelled: what to cancel and release outside the lock. Before the upstream
    /// subscription it changes nothing.
    @inlinable
    mutating func cancel() -> (timer: (any Cancellable)?, upstream: (any Subscription)?, released: Phase) {
        switch phase {
        case .awaiting, .terminated:
            return (nil, nil, .terminated)
        case .subscribed(let state):
            defer { phase = .terminated }
            return (state.timer, state.upstream, phase)
        case .completing:
            defer { phase = .terminated }
            return (nil, nil, phase)
        }
    }

    /// The mirror's children: downstream, downstreamDemand, currentValue.
    @inlinable
    var reflected: (downstream: Downstream?, demand: Subscribers.Demand, currentValue: Value?) {
        switch phase {
        case .awaiting(let downstream): (downstream.value, .none, nil)
        case .subscribed(let state): (state.downstream.value, state.demand, state.pending)
        case .completing(let downstream, let demand, let last): (downstream.value, demand, last)
        case .terminated: (nil, .none, nil)
        }
    }
}
