/// The state of a `throttle` subscription: a value with no lock and no callouts. Each event
/// updates it and returns what the subscription must do once the lock is released.
///
/// Phases:
/// - `awaitingSubscription`: the upstream subscription → `subscribed`; `cancel` → `terminated`,
///   as in Combine (unlike its other time operators), so a subscription arriving later is
///   cancelled.
/// - `subscribed`: a value the downstream has demand for becomes the pending one (or, while one
///   is pending, replaces it with `latest`) and is emitted when its window allows; a value without
///   demand is dropped. The upstream's completion is queued behind a pending value, or otherwise
///   scheduled on its own. The emission that carries the completion, the completion's own
///   delivery, or `cancel` → `terminated`.
/// - `terminated`: everything has been let go.
@usableFromInline
struct ThrottleStateMachine<Downstream: Subscriber, Time: Strideable> {
    @usableFromInline
    typealias Value = Downstream.Input
    @usableFromInline
    typealias Completion = Subscribers.Completion<Downstream.Failure>

    @usableFromInline
    struct Subscribed {
        @usableFromInline
        let downstream: Box<Downstream>
        @usableFromInline
        let upstream: any Subscription
        @usableFromInline
        var demand = Subscribers.Demand.none
        /// The value whose emission is scheduled.
        @usableFromInline
        var pending: Value?
        @usableFromInline
        var lastEmission: Time?
        /// The upstream's completion, once it arrived.
        @usableFromInline
        var completion: Completion?
        /// The subscription itself, held while its completion waits behind a pending emission
        /// (which holds it weakly), so that the completion is not lost.
        @usableFromInline
        var keepAlive: AnyObject?

        @inlinable
        init(downstream: Box<Downstream>, upstream: any Subscription) {
            self.downstream = downstream
            self.upstream = upstream
        }
    }

    @usableFromInline
    enum Phase {
        case awaitingSubscription(Box<Downstream>)
        case subscribed(Subscribed)
        case terminated
    }

    /// When a value's emission is due.
    @usableFromInline
    enum Emission: Equatable {
        case now
        case at(Time)
    }

    @usableFromInline
    var phase: Phase

    @inlinable
    init(downstream: Downstream) {
        phase = .awaitingSubscription(Box(downstream))
    }

    /// Whether the upstream subscription is still awaited: only then does its arrival read the
    /// clock, as in Combine.
    @inlinable
    var awaitsSubscription: Bool {
        if case .awaitingSubscription = phase { true } else { false }
    }

    /// Whether a value or a completion arriving now is taken (subscribed, before the first
    /// completion): only then does it read the clock, as in Combine.
    @inlinable
    var takesEvents: Bool {
        guard case .subscribed(let state) = phase else { return false }
        return state.completion == nil
    }

    /// Whether the scheduled emission due now records its time: it sends a value without the
    /// completion. Only then does it read the clock, as in Combine.
    @inlinable
    var emissionRecordsTime: Bool {
        guard case .subscribed(let state) = phase else { return false }
        return state.pending != nil && state.completion == nil
    }

    /// An upstream subscription: the downstream to hand it to, or nil to cancel it (a second one,
    /// or one arriving after the end or after a cancel).
    @inlinable
    mutating func receiveSubscription(_ upstream: any Subscription) -> Box<Downstream>? {
        guard case .awaitingSubscription(let downstream) = phase else { return nil }
        phase = .subscribed(Subscribed(downstream: downstream, upstream: upstream))
        return downstream
    }

    /// A value arrived at `now`: when to emit it, or nil when nothing is to be scheduled (no
    /// demand, an emission already pending, or the stream is over).
    @inlinable
    mutating func receiveValue(_ value: Value, now: Time, interval: Time.Stride, latest: Bool) -> Emission? {
        guard case .subscribed(var state) = phase, state.completion == nil, state.demand > 0 else { return nil }
        guard state.pending == nil else {
            if latest {
                state.pending = value
                phase = .subscribed(state)
            }
            return nil
        }
        state.pending = value
        state.demand -= 1
        phase = .subscribed(state)
        guard let last = state.lastEmission else { return .now }
        let due = last.advanced(by: interval)
        return due > now ? .at(due) : .now
    }

    /// What a scheduled emission does.
    @usableFromInline
    enum EmitAction {
        /// Nothing pending: nothing.
        case none
        /// Send `value` to `downstream`, then add the demand it returns.
        case deliver(Box<Downstream>, Value)
        /// Send `value`, then the completion queued behind it, to `downstream`; `keepAlive` (the
        /// subscription held for the completion) is let go afterwards.
        case deliverAndComplete(Box<Downstream>, Value, Completion, keepAlive: AnyObject?)
    }

    /// A scheduled emission is due: the downstream, the value, and the completion queued behind
    /// it. `now` is the time read for an emission that ``emissionRecordsTime``; without it, a
    /// value that must record its time is left to the emission scheduled for it.
    @inlinable
    mutating func emit(now: Time?) -> EmitAction {
        if case .awaitingSubscription = phase {
            preconditionFailure("ThrottleStateMachine: internal inconsistency: emission before subscribed")
        }
        guard case .subscribed(var state) = phase, let value = state.pending else { return .none }
        if let completion = state.completion {
            phase = .terminated
            return .deliverAndComplete(state.downstream, value, completion, keepAlive: state.keepAlive)
        }
        guard let now else { return .none }
        state.pending = nil
        state.lastEmission = now
        phase = .subscribed(state)
        return .deliver(state.downstream, value)
    }

    /// The downstream asked for `demand`, by a request or from `receive(_:)`.
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) {
        guard case .subscribed(var state) = phase else { return }
        state.demand += demand
        phase = .subscribed(state)
    }

    /// What the subscription does with the upstream's completion.
    @usableFromInline
    enum CompletionAction {
        /// Not subscribed, or already completed: nothing.
        case ignore
        /// Queued behind the pending value, which delivers it: nothing now (`subscription` is
        /// held until then).
        case queued
        /// Nothing pending: schedule the completion on its own.
        case schedule
    }

    /// The upstream completed: scheduled on its own, queued behind a pending value, or ignored.
    @inlinable
    mutating func receiveCompletion(_ completion: Completion, subscription: AnyObject) -> CompletionAction {
        guard case .subscribed(var state) = phase, state.completion == nil else { return .ignore }
        state.completion = completion
        if state.pending != nil { state.keepAlive = subscription }
        phase = .subscribed(state)
        return state.pending == nil ? .schedule : .queued
    }

    /// What the completion scheduled on its own does.
    @usableFromInline
    enum DeliverCompletionAction {
        /// Cancelled meanwhile: nothing.
        case none
        /// Send `completion` to `downstream`.
        case deliver(Box<Downstream>, Completion)
    }

    /// The completion scheduled on its own is due: the downstream and the completion.
    @inlinable
    mutating func deliverCompletion() -> DeliverCompletionAction {
        guard case .subscribed(let state) = phase, let completion = state.completion else { return .none }
        phase = .terminated
        return .deliver(state.downstream, completion)
    }

    /// What a cancel does once the lock is released.
    @usableFromInline
    enum CancelAction {
        /// Already terminated: nothing.
        case none
        /// Cancel `upstream`, if any (none before the upstream subscription); `released` is let
        /// go outside the lock.
        case cancel((any Subscription)?, released: Phase)
    }

    /// The downstream cancelled: the upstream to cancel, and what to release outside the lock.
    /// Before the upstream subscription it ends the operator too, as in Combine: the downstream
    /// is let go and a subscription arriving later is cancelled.
    @inlinable
    mutating func cancel() -> CancelAction {
        let released = phase
        switch phase {
        case .awaitingSubscription:
            phase = .terminated
            return .cancel(nil, released: released)
        case .subscribed(let state):
            phase = .terminated
            return .cancel(state.upstream, released: released)
        case .terminated:
            return .none
        }
    }
}
