/// The downstream end of an operator that merges events from several upstreams (`merge`,
/// `combineLatest`, `zip`).
///
/// Deliveries are serial without a recursive lock, through a ``DeliveryTurn``: the call that
/// finds nobody delivering takes the turn, delivers, and drains the buffer before it lets go. A
/// value sent re-entrantly from inside the downstream is buffered and delivered next; a value
/// from another thread waits for the turn, so upstreams on other threads run at the
/// downstream's pace instead of filling the buffer; one whose wait would deadlock (the
/// delivering thread waits for the sender's thread) is buffered like a re-entrant one. The
/// outlet counts the downstream's demand: values beyond it wait in the buffer (or are dropped,
/// for `combineLatest`), which the upstreams' own demand bounds. A `.finished` waits behind buffered values; a failure discards
/// them and goes next. No lock is held while the downstream runs.
///
/// `onDemand` is told the demand the downstream returns from `receive(_:)`, so that the operator
/// can ask its upstreams for it. It runs outside the lock and captures its operator `unowned`,
/// since the operator owns the outlet.
///
/// Its lock also guards the fan-in operator's ``FanInStateMachine`` (`fanIn`), so that the
/// operator has one lock and making a tuple and claiming the turn to deliver it are one critical
/// section.
///
/// Unchecked `Sendable`: `onDemand` is a closure that is not `Sendable`.
@usableFromInline
package final class Outlet<Downstream: Subscriber>: @unchecked Sendable {
    @usableFromInline
    package typealias Input = Downstream.Input

    /// What the lock guards.
    @usableFromInline
    package struct State {
        @usableFromInline
        package var downstream: Downstream?
        @usableFromInline
        package var demand = Subscribers.Demand.none
        @usableFromInline
        package var turn = DeliveryTurn()
        @usableFromInline
        package var buffer: [Input] = []
        @usableFromInline
        package var bufferHead = 0
        @usableFromInline
        package var pendingCompletion: Subscribers.Completion<Downstream.Failure>?
        /// The state of the fan-in operator the outlet serves.
        @usableFromInline
        package var fanIn: FanInStateMachine

        @inlinable
        package init(downstream: Downstream, fanIn: FanInStateMachine) {
            self.downstream = downstream
            self.fanIn = fanIn
        }

        @inlinable
        package var bufferedCount: Int { buffer.count - bufferHead }

        /// Whether values may still be sent.
        @inlinable
        package var isOpen: Bool { downstream != nil && pendingCompletion == nil }

        /// Decides what becomes of `value` now that this call holds the turn: delivered at once
        /// if nothing is buffered before it and there is demand, else buffered (or dropped).
        @inlinable
        package mutating func admit(_ value: Input, dropWithoutDemand: Bool) -> SendStep {
            if bufferedCount > 0 || demand == .none {
                enqueue(value, dropWithoutDemand: dropWithoutDemand)
                return .drain
            }
            demand -= 1
            return .deliver(downstream!, value)
        }

        /// Buffers `value`, or drops it when asked to and no demand is left for it.
        @inlinable
        package mutating func enqueue(_ value: Input, dropWithoutDemand: Bool) {
            if !dropWithoutDemand || demand > bufferedCount {
                buffer.append(value)
            }
        }

        /// Empties the state and hands it out, so that it dies outside the lock, with the
        /// waiters to wake.
        @inlinable
        package mutating func takeAll() -> Remains {
            defer {
                downstream = nil
                buffer = []
                bufferHead = 0
                pendingCompletion = nil
            }
            return Remains(downstream: downstream, rest: buffer, dismissed: turn.dismissAll())
        }

        /// The upstreams ended with `completion`: a failure discards what is buffered; the
        /// completion goes now if nobody is delivering and nothing is buffered, else it waits
        /// for the drain.
        @inlinable
        package mutating func complete(_ completion: Subscribers.Completion<Downstream.Failure>) -> CompleteAction {
            guard isOpen else { return .none }
            // What a failure discards is handed out, to die outside the lock.
            var discarded: [Input] = []
            if case .failure = completion {
                swap(&discarded, &buffer)
                bufferHead = 0
            }
            guard !turn.isHeld, bufferedCount == 0 else {
                pendingCompletion = completion
                return discarded.isEmpty ? .none : .discard(discarded)
            }
            let remains = takeAll()
            guard let downstream = remains.downstream else { return .discard(discarded) }
            return .complete(downstream, released: (remains.rest, discarded))
        }
    }

    /// What ``State/takeAll()`` hands out of the lock: the downstream, what was buffered (to
    /// die outside the lock), and the threads that were waiting for the turn, to be woken.
    @usableFromInline
    package struct Remains {
        @usableFromInline
        package let downstream: Downstream?
        @usableFromInline
        package let rest: Any
        @usableFromInline
        package let dismissed: ArraySlice<TurnWaiter>

        @inlinable
        package init(downstream: Downstream?, rest: Any, dismissed: ArraySlice<TurnWaiter>) {
            self.downstream = downstream
            self.rest = rest
            self.dismissed = dismissed
        }
    }

    /// What ``complete(_:)`` does once it has left the lock.
    @usableFromInline
    package enum CompleteAction {
        /// Nothing now: the outlet has ended, or the completion waits for the drain.
        case none
        /// Nothing but let these buffered values (a failure discarded them) die outside the lock;
        /// the failure waits for the delivery under way.
        case discard(Any)
        /// Send the completion to this downstream; `released` (what was buffered) dies outside
        /// the lock.
        case complete(Downstream, released: Any)
    }

    @usableFromInline
    package let state: LockedState<State>

    @usableFromInline
    package let onDemand: ((Subscribers.Demand) -> Void)?

    @inlinable
    package init(
        downstream: Downstream,
        fanIn: FanInStateMachine,
        onDemand: ((Subscribers.Demand) -> Void)? = nil
    ) {
        state = LockedState(State(downstream: downstream, fanIn: fanIn))
        self.onDemand = onDemand
    }

    /// The demand not yet used up by delivered or buffered values.
    @inlinable
    package var unclaimedDemand: Subscribers.Demand {
        state.withLock { $0.demand - $0.bufferedCount }
    }

    /// Delivers `value` now, or buffers it behind the delivery this thread is making or until
    /// there is demand, or waits while another thread delivers. With `dropWithoutDemand`, a
    /// value that no demand is left for is dropped instead.
    @inlinable
    package func send(_ value: Input, dropWithoutDemand: Bool = false) {
        // The same steps as `send(making:)`, spelled out: through a closure they cost flatMap
        // more per value (Docs/Performance.md has the measured cost).
        let thread = ThreadIdentity.current
        var step = state.withLock { state -> SendStep in
            guard state.isOpen else { return .done }
            switch state.turn.claim(for: thread) {
            case .granted:
                return state.admit(value, dropWithoutDemand: dropWithoutDemand)
            case .reentrant, .queue:
                state.enqueue(value, dropWithoutDemand: dropWithoutDemand)
                return .done
            case .wait(let waiter):
                return .wait(waiter)
            }
        }
        if case .wait(let waiter) = step {
            waiter.park()
            step = state.withLock { state in
                guard waiter.granted else { return .done }
                guard state.isOpen else { return .drain }
                return state.admit(value, dropWithoutDemand: dropWithoutDemand)
            }
        }
        finishSend(step)
    }

    /// Like ``send(_:dropWithoutDemand:)`` for a value that must be made in the same
    /// serial step as its delivery (`combineLatest`'s and `zip`'s tuples): `make` runs once this
    /// thread holds the turn (or re-entrantly, inside the delivery it is making), so that values
    /// are delivered in the order they were made. A nil from `make` sends nothing. `make` runs
    /// with the outlet's lock held: it may use state its operator keeps under that lock (the
    /// fan-in operators keep their state machine there) or take its operator's own lock (never
    /// the other way round), but must not call out.
    ///
    /// With `returningDemand`, the demand the downstream returns for this value, if this call
    /// delivered it, is returned instead of being told to `onDemand` (`zip` returns it from the
    /// upstream's `receive(_:)`); nil when the value was buffered, dropped or not made.
    @inlinable
    @discardableResult
    package func send(
        dropWithoutDemand: Bool = false, returningDemand: Bool = false,
        making make: (inout FanInStateMachine) -> Input?
    ) -> Subscribers.Demand? {
        let thread = ThreadIdentity.current
        var step = state.withLock { state -> SendStep in
            guard state.isOpen else { return .done }
            switch state.turn.claim(for: thread) {
            case .granted:
                guard let value = make(&state.fanIn) else { return .drain }
                return state.admit(value, dropWithoutDemand: dropWithoutDemand)
            case .reentrant, .queue:
                if let value = make(&state.fanIn) { state.enqueue(value, dropWithoutDemand: dropWithoutDemand) }
                return .done
            case .wait(let waiter):
                return .wait(waiter)
            }
        }
        if case .wait(let waiter) = step {
            waiter.park()
            step = state.withLock { state in
                guard waiter.granted else { return .done }
                guard state.isOpen, let value = make(&state.fanIn) else { return .drain }
                return state.admit(value, dropWithoutDemand: dropWithoutDemand)
            }
        }
        guard returningDemand, case let .deliver(downstream, value) = step else {
            finishSend(step)
            return nil
        }
        let demand = deliver(value, to: downstream)
        drain(adding: demand, reporting: false)
        return demand
    }

    /// Delivers `value` to `downstream` while this thread holds the turn: one call site for every
    /// delivery, so that the downstream's chain is inlined once per specialisation rather than
    /// at each of them.
    @inlinable
    @inline(never)
    package func deliver(_ value: Input, to downstream: Downstream) -> Subscribers.Demand {
        downstream.receive(value)
    }

    /// What a send does once it has left the lock.
    @usableFromInline
    package enum SendStep {
        /// Nothing (more) to do: the turn is not this call's.
        case done
        /// Deliver the value to this downstream, then drain.
        case deliver(Downstream, Input)
        /// The value was buffered or dropped: drain, then let the turn go.
        case drain
        /// Another thread delivers: wait for the turn.
        case wait(TurnWaiter)
    }

    /// Carries out `step` for a value.
    @inlinable
    package func finishSend(_ step: SendStep) {
        switch step {
        case let .deliver(downstream, value):
            drain(adding: deliver(value, to: downstream))
        case .drain:
            drain(adding: .none)
        case .done, .wait:
            return
        }
    }

    /// Completes the downstream once buffered values are out (`.finished`) or next (a failure).
    @inlinable
    @inline(never)
    package func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
        guard case .complete(let downstream, _) = state.withLock({ $0.complete(completion) }) else { return }
        downstream.receive(completion: completion)
    }

    /// Adds demand and delivers buffered values it allows.
    @inlinable
    @inline(never)
    package func request(_ demand: Subscribers.Demand) {
        let thread = ThreadIdentity.current
        let mustDrain = state.withLock { state in
            guard state.downstream != nil else { return false }
            state.demand += demand
            guard !state.turn.isHeld, state.bufferedCount > 0 else { return false }
            state.turn.holder = thread
            return true
        }
        if mustDrain {
            drain(adding: .none)
        }
    }

    /// Drops the downstream and everything buffered; threads waiting to deliver give up.
    @inlinable
    @inline(never)
    package func cancel() {
        let released = state.withLock { $0.takeAll() }
        for waiter in released.dismissed { waiter.wake() }
        withExtendedLifetime(released) {}
    }

    /// Delivers what the buffer and demand allow, then the pending completion if it is due,
    /// then hands the turn to the next waiting thread or lets it go; runs only while holding
    /// the turn. `additional` is the demand the downstream returned for the value it was just
    /// given, if any; `reporting` false keeps it from `onDemand` (the caller has taken it).
    @inlinable
    @inline(never)
    package func drain(adding additional: Subscribers.Demand, reporting: Bool = true) {
        var additional = additional
        var reporting = reporting
        while true {
            if additional > 0, reporting { onDemand?(additional) }
            reporting = true
            let step = state.withLock { state -> DrainStep in
                guard let downstream = state.downstream else {
                    state.turn.letGo()
                    return .stop
                }
                state.demand += additional
                if state.bufferedCount > 0, state.demand > 0 {
                    state.demand -= 1
                    let next = state.buffer[state.bufferHead]
                    state.bufferHead += 1
                    guard state.bufferHead == state.buffer.count else { return .deliver(downstream, next, nil) }
                    // The buffer is served: the values in it die outside the lock (the
                    // downstream may have let go of them already).
                    var served: [Input] = []
                    swap(&served, &state.buffer)
                    state.bufferHead = 0
                    return .deliver(downstream, next, served)
                }
                if let completion = state.pendingCompletion, state.bufferedCount == 0 {
                    let released = state.takeAll()
                    state.turn.letGo()
                    return .complete(downstream, completion, released.rest, released.dismissed)
                }
                if let waiter = state.turn.pass() {
                    return .handOver(waiter)
                }
                return .stop
            }
            switch step {
            case let .deliver(downstream, value, _):
                additional = deliver(value, to: downstream)
            case let .complete(downstream, completion, _, dismissed):
                for waiter in dismissed { waiter.wake() }
                downstream.receive(completion: completion)
                return
            case .handOver(let waiter):
                waiter.wake()
                return
            case .stop:
                return
            }
        }
    }

    /// One step of `drain`, decided under the lock and carried out outside it.
    @usableFromInline
    package enum DrainStep {
        /// Deliver a buffered value; the served buffer, if this emptied it, dies outside the lock.
        case deliver(Downstream, Input, [Input]?)
        case complete(Downstream, Subscribers.Completion<Downstream.Failure>, Any, ArraySlice<TurnWaiter>)
        case handOver(TurnWaiter)
        case stop
    }
}
