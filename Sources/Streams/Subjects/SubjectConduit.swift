import Synchronization

/// One subscriber's subscription to a subject.
///
/// Its state is a ``SubjectConduitStateMachine`` behind one lock; the conduit performs the
/// machine's actions outside the lock. Deliveries to the subscriber are serial, and no lock is
/// held while it runs: a ``DeliveryTurn`` says which thread delivers. A value or completion sent
/// re-entrantly from inside the subscriber is queued and delivered by the call under way before
/// it returns; one sent from another thread waits for its turn and then delivers itself, so
/// that when `send` returns its value has reached (or been dropped by) the subscriber, and a
/// producer runs at its subscriber's pace instead of piling values up. The one exception: a
/// send whose wait would close a cycle of threads waiting for each other (the delivering thread
/// waits, directly or through others, for a delivery the sender is making) is queued for the
/// delivering thread like a re-entrant one, and `send` returns before the value has arrived.
///
/// A value offered while the subscriber has no demand is dropped, never queued, as in Combine;
/// the demand a delivered value takes is counted when the value is offered. A subject with a
/// current value remembers that the subscriber is behind and delivers the subject's current
/// value on its next request. The conduit holds its subject strongly until it completes or is
/// cancelled.
///
/// Unchecked `Sendable`: it calls its subscriber, which need not be `Sendable`, through
/// `receiver`, whose lifetime the turn (or the fast mode) guarantees.
@usableFromInline
final class SubjectConduit<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    typealias Output = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure
    @usableFromInline
    typealias StateMachine = SubjectConduitStateMachine
    @usableFromInline
    typealias Core = SubjectCore<Output, Failure>

    /// The values of `mode` other than the identity of a thread delivering fast.
    @usableFromInline
    enum Mode {
        @inlinable static var slow: Int { 0 }
        @inlinable static var fastIdle: Int { 1 }
    }

    /// The key the core keeps this conduit under, to remove it by.
    @usableFromInline
    let key: Int
    /// While the state machine allows it (``SubjectConduitStateMachine/allowsFastDelivery``),
    /// the conduit is in the fast mode: `mode` is `fastIdle`, and `offer` claims the delivery by
    /// swapping in its thread's identity with one atomic operation, delivers without the lock,
    /// and swaps `fastIdle` back. Everything else takes the lock and first leaves the fast mode
    /// (`leaveFastMode()`); if a fast delivery was under way, its thread becomes the holder of
    /// the turn and drains what was queued behind it.
    @usableFromInline
    let mode = Atomic<Int>(Mode.slow)
    /// The subscriber's box, unretained, for deliveries: in the fast mode and while a thread
    /// holds the turn, the state machine keeps it.
    @usableFromInline
    let receiver: Unmanaged<Box<Downstream>>
    @usableFromInline
    let state: LockedState<StateMachine>
    /// Last, so that the one byte follows the state instead of taking a word of its own.
    @usableFromInline
    let kind: SubjectKind

    /// A conduit whose subscribing thread (the caller) holds the turn until ``start()``.
    @inlinable
    init(downstream: Downstream, subject: AnyObject, core: Core, kind: SubjectKind, key: Int) {
        let box = Box(downstream)
        receiver = .passUnretained(box)
        self.kind = kind
        self.key = key
        state = LockedState(
            StateMachine(
                kind: kind, live: .init(downstream: box, subject: subject, core: core),
                subscribingThread: ThreadIdentity.current))
    }

    /// Hands the subscription to the subscriber, then delivers whatever arrived meanwhile; call
    /// on the thread that made the conduit.
    @inlinable
    func start() {
        guard let downstream = state.withLock({ $0.subscriberToStart() }) else { return }
        unsafeDowncast(downstream, to: Box<Downstream>.self).value.receive(subscription: self)
        drain(adding: .none)
    }

    /// Delivers `value`, sent by `thread` (`ThreadIdentity.current`, looked up once per send
    /// by the subject): now, after waiting for the turn, queued behind the delivery `thread` is
    /// making, or not at all without demand.
    @inlinable
    func offer(_ value: Output, from thread: Int) {
        if mode.compareExchange(expected: Mode.fastIdle, desired: thread, ordering: .acquiring).exchanged {
            // The demand is unlimited, so what the subscriber returns changes nothing.
            _ = receiver._withUnsafeGuaranteedRef { $0.value.receive(value) }
            if !mode.compareExchange(expected: thread, desired: Mode.fastIdle, ordering: .releasing).exchanged {
                // Something took the lock path meanwhile and left this delivery to drain.
                drain(adding: .none)
            }
            return
        }
        let action = state.withLock { state in
            leaveFastMode(&state)
            return state.offer(value, from: thread)
        }
        switch action {
        case .none:
            return
        case .deliver:
            break
        case .wait(let waiter):
            waiter.park()
            switch state.withLock({ $0.resume(waiter) }) {
            case .none:
                return
            case .release(let released):
                withExtendedLifetime(released) {}
                return
            case .deliver:
                break
            }
        }
        drain(adding: deliver(value))
    }

    @inlinable
    func finish(_ completion: Subscribers.Completion<Failure>) {
        let thread = ThreadIdentity.current
        let action = state.withLock { state in
            leaveFastMode(&state)
            return state.finish(completion, from: thread)
        }
        switch action {
        case .none:
            return
        case .deliver(let remains):
            complete(remains, with: completion)
        case .wait(let waiter):
            waiter.park()
            switch state.withLock({ $0.resumeFinish(waiter) }) {
            case .none:
                return
            case .release(let released):
                withExtendedLifetime(released) {}
            case .deliver(let remains):
                complete(remains, with: completion)
            }
        }
    }

    /// Wakes the dismissed waiters and completes the subscriber; the subject and the core are
    /// released here, outside the lock.
    @inlinable
    @inline(never)
    func complete(_ remains: StateMachine.Remains, with completion: Subscribers.Completion<Failure>) {
        for waiter in remains.dismissed { waiter.wake() }
        guard let downstream = remains.downstream else { return }
        unsafeDowncast(downstream, to: Box<Downstream>.self).value.receive(completion: completion)
    }

    /// Leaves the fast mode; call with the lock held, on the `state` it guards. The thread of a
    /// fast delivery under way becomes the holder of the turn.
    @inlinable
    func leaveFastMode(_ state: inout StateMachine) {
        let previous = mode.exchange(Mode.slow, ordering: .acquiringAndReleasing)
        if previous != Mode.slow && previous != Mode.fastIdle {
            state.fastDeliveryInterrupted(by: previous)
        }
    }

    /// Adds the demand the subscriber returned, then, holding the turn, performs the machine's
    /// next actions until it lets the turn go.
    @inlinable
    @inline(never)
    func drain(adding additional: Subscribers.Demand) {
        var additional = additional
        while true {
            let next = state.withLock { state in
                let action = state.drain(adding: additional)
                if case .idle(fast: true) = action {
                    mode.store(Mode.fastIdle, ordering: .releasing)
                }
                return action
            }
            switch next {
            case .idle:
                return
            case .release(let downstream):
                withExtendedLifetime(downstream) {}
                return
            case .handOver(let waiter):
                waiter.wake()
                return
            case .value(let box):
                additional = deliver(unsafeDowncast(box, to: Box<Output>.self).value)
            case .current(let core):
                additional = deliver(unsafeDowncast(core, to: Core.self).currentValue)
            case .completion(let remains, let box):
                complete(remains, with: unsafeDowncast(box, to: Box<Subscribers.Completion<Failure>>.self).value)
                return
            }
        }
    }

    /// Delivers `value` to the subscriber while this thread holds the turn: one call site for
    /// the slow path's deliveries, so that the subscriber's chain is inlined once per
    /// specialisation rather than at each of them.
    @inlinable
    @inline(never)
    func deliver(_ value: Output) -> Subscribers.Demand {
        // Unretained: nothing releases the subscriber while the turn is held.
        receiver._withUnsafeGuaranteedRef { $0.value.receive(value) }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        if case .observableObject = kind, demand == .none { return }
        precondition(demand > 0, "API Violation: demand must not be zero")
        let thread = ThreadIdentity.current
        let action = state.withLock { state in
            leaveFastMode(&state)
            let action = state.request(demand, from: thread)
            switch action {
            case .none(fast: true), .notify(_, fast: true):
                mode.store(Mode.fastIdle, ordering: .releasing)
            default:
                break
            }
            return action
        }
        switch action {
        case .none:
            return
        case .notify(let core, _):
            core.conduitReceivedDemand()
        case let .deliverCurrent(core, notify):
            if notify { core.conduitReceivedDemand() }
            drain(adding: deliver(unsafeDowncast(core, to: Core.self).currentValue))
        }
    }

    /// Ends the subscription: the subscriber is released at once, or by the delivery under
    /// way when it returns; threads waiting to deliver give up.
    @inlinable
    func cancel() {
        let remains = state.withLock { state in
            leaveFastMode(&state)
            return state.cancel()
        }
        guard let remains else { return }
        for waiter in remains.dismissed { waiter.wake() }
        remains.core.remove(key)
    }

    @usableFromInline
    var description: String { kind.conduitDescription }

    @usableFromInline
    var customMirror: Mirror {
        state.withLock { state in
            let live: StateMachine.Live?
            switch state.phase {
            case .subscribed(let current), .completing(let current): live = current
            case .terminated: live = nil
            }
            let downstream = live.map { unsafeDowncast($0.downstream, to: Box<Downstream>.self).value } as Any
            if case .observableObject = kind {
                return Mirror(self, children: ["downstream": downstream])
            }
            return Mirror(
                self,
                children: [
                    "parent": live?.subject as Any, "downstream": downstream, "demand": state.demand,
                    "subject": live?.subject as Any,
                ])
        }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
