/// The state of a `collect(.byTime)` / `collect(.byTimeOrCount)` subscription: a value with no
/// lock and no callouts. Each event updates it and returns what the subscription must do once the
/// lock is released.
///
/// Phases:
/// - `awaitingSubscription`: the upstream subscription → `subscribed`; `cancel` is a no-op, as in the other
///   time operators, so a subscription arriving later is still accepted.
/// - `subscribed`: until the downstream has been handed the subscription, its requests only add
///   demand (the subscription then asks upstream for one value, as in Combine); values are buffered; a flush sends the groups the downstream's demand allows
///   (a group due without demand is `held` until the next request); `.finished` → `completing`;
///   a failure or `cancel` → `terminated`.
/// - `completing`: flushes send what is left, then `.finished` → `terminated`.
/// - `terminated`: everything has been let go.
@usableFromInline
struct CollectByTimeStateMachine<Downstream: Subscriber, Value> where Downstream.Input == [Value] {
    @usableFromInline
    struct Collecting {
        @usableFromInline
        let downstream: Box<Downstream>
        @usableFromInline
        let upstream: any Subscription
        @usableFromInline
        var buffer: [Value] = []
        @usableFromInline
        var demand = Subscribers.Demand.none
        /// The interval timer, once armed.
        @usableFromInline
        var timer: (any Cancellable)?
        /// A group was due but had no demand: the next request sends it.
        @usableFromInline
        var held = false
        /// The downstream has been handed the subscription: until then a request only adds
        /// demand, since the request for one value made once it is handed down covers it.
        @usableFromInline
        var handedDown = false

        @inlinable
        init(downstream: Box<Downstream>, upstream: any Subscription) {
            self.downstream = downstream
            self.upstream = upstream
        }
    }

    @usableFromInline
    enum Phase {
        case awaitingSubscription(Box<Downstream>)
        case subscribed(Collecting)
        /// The upstream finished; what is left is being sent.
        case completing(Collecting)
        case terminated
    }

    /// What a flush does next, once it has left the lock.
    @usableFromInline
    enum FlushStep {
        case idle
        case send(Box<Downstream>, [Value])
        case finish(Box<Downstream>, (any Cancellable)?)
    }

    /// What the subscription does with the upstream's completion.
    @usableFromInline
    enum CompletionAction {
        case ignore
        /// Schedule a flush: it sends what is left, then `.finished`.
        case flush
        /// Cancel the timer and pass the failure on at once.
        case fail(Box<Downstream>, (any Cancellable)?)
    }

    /// The largest group, for `.byTimeOrCount`.
    @usableFromInline
    let count: Int?
    @usableFromInline
    var phase: Phase

    @inlinable
    init(downstream: Downstream, count: Int?) {
        self.count = count
        phase = .awaitingSubscription(Box(downstream))
    }

    /// An upstream subscription: the downstream to hand it to, or nil to cancel it.
    @inlinable
    mutating func receiveSubscription(_ upstream: any Subscription) -> Box<Downstream>? {
        guard case .awaitingSubscription(let downstream) = phase else { return nil }
        phase = .subscribed(Collecting(downstream: downstream, upstream: upstream))
        return downstream
    }

    /// The interval timer was made: nil when kept, or the timer to cancel when the stream is over.
    @inlinable
    mutating func armed(_ timer: any Cancellable) -> (any Cancellable)? {
        if case .awaitingSubscription = phase {
            preconditionFailure("CollectByTimeStateMachine: internal inconsistency: armed before subscribed")
        }
        guard case .subscribed(var state) = phase else { return timer }
        state.timer = timer
        phase = .subscribed(state)
        return nil
    }

    /// The downstream has been handed the subscription: the upstream to ask for one value (as in
    /// Combine, once, whatever the downstream requested meanwhile), or nil once it is over.
    @inlinable
    mutating func handedDown() -> (any Subscription)? {
        guard case .subscribed(var state) = phase else { return nil }
        state.handedDown = true
        phase = .subscribed(state)
        return state.upstream
    }

    /// What the subscription does with a value once the lock is released.
    @usableFromInline
    enum ReceiveValueAction {
        /// The value was ignored (before the subscription, or after the completion).
        case ignore
        /// The value was collected: ask upstream for the next one.
        case collected
        /// The value filled a group of `count`: ask for the next one, and schedule a flush of
        /// the full groups.
        case filledGroup
    }

    /// A value arrived: collected, or ignored outside the `subscribed` phase.
    @inlinable
    mutating func receiveValue(_ value: Value) -> ReceiveValueAction {
        guard case .subscribed(var state) = phase else { return .ignore }
        // Out of the enum while appending, so that the buffer is not copied.
        phase = .terminated
        state.buffer.append(value)
        let full = count.map { state.buffer.count == $0 } ?? false
        phase = .subscribed(state)
        return full ? .filledGroup : .collected
    }

    @inlinable
    mutating func receiveCompletion(_ completion: Subscribers.Completion<Downstream.Failure>) -> CompletionAction {
        guard case .subscribed(let state) = phase else { return .ignore }
        switch completion {
        case .finished:
            phase = .completing(state)
            return .flush
        case .failure:
            phase = .terminated
            return .fail(state.downstream, state.timer)
        }
    }

    /// The next step of a flush: a group the demand allows (with `onlyFullGroups`, only a group of
    /// `count`), the end once the upstream has finished and nothing is left, or nothing.
    @inlinable
    mutating func flushStep(onlyFullGroups: Bool) -> FlushStep {
        let finishing: Bool
        var state: Collecting
        switch phase {
        case .subscribed(let current): (state, finishing) = (current, false)
        case .completing(let current): (state, finishing) = (current, true)
        case .awaitingSubscription, .terminated: return .idle
        }
        phase = .terminated
        let ready = onlyFullGroups ? state.buffer.count >= (count ?? .max) : !state.buffer.isEmpty
        var step = FlushStep.idle
        if ready && state.demand > 0 {
            state.demand -= 1
            let size = min(state.buffer.count, count ?? state.buffer.count)
            step = .send(state.downstream, Array(state.buffer.prefix(size)))
            state.buffer.removeFirst(size)
        } else {
            state.held = ready
            if finishing && state.buffer.isEmpty { return .finish(state.downstream, state.timer) }
        }
        phase = finishing ? .completing(state) : .subscribed(state)
        return step
    }

    /// What a downstream request does.
    @usableFromInline
    enum RequestAction {
        /// Not collecting, or the subscription is still being handed down: nothing.
        case none
        /// Ask `upstream` for one more value, then schedule a flush if `flush` (a group is held).
        case askUpstream(any Subscription, flush: Bool)
        /// The end is waiting: schedule a flush.
        case flush
    }

    /// The downstream asked for `demand`, by a request or from `receive(_:)`: the upstream to ask
    /// for one more value, and whether a flush is due (a group is held, or the end is waiting).
    /// While the subscription is being handed down, the demand is only added.
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> RequestAction {
        switch phase {
        case .subscribed(var state):
            state.demand += demand
            phase = .subscribed(state)
            guard state.handedDown else { return state.held ? .flush : .none }
            return .askUpstream(state.upstream, flush: state.held)
        case .completing(var state):
            state.demand += demand
            phase = .completing(state)
            return .flush
        case .awaitingSubscription, .terminated:
            return .none
        }
    }

    /// What a cancel does once the lock is released.
    @usableFromInline
    enum CancelAction {
        /// Before the upstream subscription, or already terminated: nothing.
        case none
        /// Cancel `timer` and `upstream`, if any; `released` is let go outside the lock.
        case cancel(timer: (any Cancellable)?, upstream: (any Subscription)?, released: Phase)
    }

    /// The downstream cancelled: what to cancel, and what to release outside the lock. Before the
    /// upstream subscription it changes nothing.
    @inlinable
    mutating func cancel() -> CancelAction {
        let released = phase
        switch phase {
        case .subscribed(let state):
            phase = .terminated
            return .cancel(timer: state.timer, upstream: state.upstream, released: released)
        case .completing(let state):
            phase = .terminated
            return .cancel(timer: state.timer, upstream: nil, released: released)
        case .awaitingSubscription, .terminated:
            return .none
        }
    }

    /// The mirror's children: downstream, buffered.
    @inlinable
    var reflected: (downstream: Downstream?, buffered: Int) {
        switch phase {
        case .awaitingSubscription(let downstream): (downstream.value, 0)
        case .subscribed(let state), .completing(let state): (state.downstream.value, state.buffer.count)
        case .terminated: (nil, 0)
        }
    }
}
