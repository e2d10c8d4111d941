import Synchronization

/// A subject's handle on one subscriber's conduit.
///
/// The closures are made where the conduit's type is known, so that sending through them runs
/// specialised code; calling a generic class's methods through a base class would run the
/// unspecialised implementation, which looks type metadata up on every value.
@usableFromInline
struct SubjectConduitEntry<Output, Failure: Error> {
    /// The conduit, for identity.
    @usableFromInline
    let conduit: AnyObject
    /// Delivers a value sent by the given thread (see `SubjectConduit.offer(_:from:)`).
    @usableFromInline
    let offer: (Output, Int) -> Void
    /// Delivers the completion (or queues it behind a delivery in progress).
    @usableFromInline
    let finish: (Subscribers.Completion<Failure>) -> Void

    @inlinable
    init<Downstream: Subscriber>(_ conduit: SubjectConduit<Downstream>)
    where Downstream.Input == Output, Downstream.Failure == Failure {
        self.conduit = conduit
        offer = { conduit.offer($0, from: $1) }
        finish = { conduit.finish($0) }
    }
}

/// One subscriber's subscription to a subject.
///
/// Deliveries to the subscriber are serial, and no lock is held while it runs: a
/// ``DeliveryTurn`` says which thread delivers. A value or completion sent re-entrantly from
/// inside the subscriber is queued and delivered by the call under way before it returns; one
/// sent from another thread waits for its turn and then delivers itself, so that when `send`
/// returns its value has reached (or been dropped by) the subscriber, and a producer runs at its
/// subscriber's pace instead of piling values up.
///
/// A value offered while the subscriber has no demand is dropped, never queued, as in Combine;
/// the demand a delivered value takes is counted when the value is offered. With
/// `buffersLatest` (``CurrentValueSubject``) the conduit remembers such a value instead and
/// delivers it on the next request, unless a newer one got through first.
@usableFromInline
final class SubjectConduit<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    typealias Output = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    enum Event {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
    }

    /// The values of `mode` other than the identity of a thread delivering fast.
    @usableFromInline
    enum Mode {
        @inlinable static var slow: Int { 0 }
        @inlinable static var fastIdle: Int { 1 }
    }

    @usableFromInline
    let lock = Lock()
    @usableFromInline
    let buffersLatest: Bool
    /// While the subscriber has unlimited demand and nothing is queued, buffered, waiting,
    /// delivering or terminated, the conduit is in the fast mode: `mode` is `fastIdle`, and
    /// `offer` claims the delivery by swapping in its thread's identity with one atomic
    /// operation, delivers without the lock, and swaps `fastIdle` back. Everything else takes
    /// the lock and first leaves the fast mode (`leaveFastMode()`); if a fast delivery was under
    /// way, its thread becomes the holder of `turn` and drains what was queued behind it.
    /// `stopDelivering()` returns the conduit to the fast mode when it can.
    @usableFromInline
    let mode = Atomic<Int>(Mode.slow)
    /// The subscriber's box, unretained, for fast deliveries: in the fast modes nothing releases
    /// it.
    @usableFromInline
    let fastReceiver: Unmanaged<Box<Downstream>>

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Box<Downstream>?
    @usableFromInline
    @exclusivity(unchecked)
    var core: SubjectCore<Output, Failure>?
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    @usableFromInline
    @exclusivity(unchecked)
    var notifiedCore = false
    /// Held by the subscribing thread until `start()` has handed over the subscription.
    @usableFromInline
    @exclusivity(unchecked)
    var turn = DeliveryTurn(holder: ThreadIdentity.current)
    /// A completion has been sent: later values are ignored.
    @usableFromInline
    @exclusivity(unchecked)
    var closed = false
    @usableFromInline
    @exclusivity(unchecked)
    var terminated = false
    @usableFromInline
    @exclusivity(unchecked)
    var buffered: Output?
    /// Events sent re-entrantly by the turn's holder; their demand is already counted.
    @usableFromInline
    @exclusivity(unchecked)
    var queue: [Event] = []
    @usableFromInline
    @exclusivity(unchecked)
    var queueHead = 0

    @inlinable
    init(downstream: Downstream, core: SubjectCore<Output, Failure>, buffered: Output?) {
        let box = Box(downstream)
        self.downstream = box
        fastReceiver = .passUnretained(box)
        self.core = core
        self.buffered = buffered
        buffersLatest = buffered != nil
    }

    /// Hands the subscription to the subscriber, then delivers whatever arrived meanwhile; call
    /// on the thread that made the conduit.
    @inlinable
    func start() {
        guard let downstream = lock.withLockUnchecked({ downstream }) else { return }
        downstream.value.receive(subscription: self)
        drain(adding: .none)
    }

    /// Delivers `value`, sent by `thread` (`ThreadIdentity.current`, looked up once per send
    /// by the subject): now, after waiting for the turn, queued behind the delivery `thread` is
    /// making, or not at all without demand.
    @inlinable
    func offer(_ value: Output, from thread: Int) {
        if mode.compareExchange(expected: Mode.fastIdle, desired: thread, ordering: .acquiring).exchanged {
            // The demand is unlimited, so what the subscriber returns changes nothing.
            _ = fastReceiver._withUnsafeGuaranteedRef { $0.value.receive(value) }
            if !mode.compareExchange(expected: thread, desired: Mode.fastIdle, ordering: .releasing).exchanged {
                // Something took the lock path meanwhile and left this delivery to drain.
                drain(adding: .none)
            }
            return
        }
        let step = lock.withLockUnchecked { () -> OfferStep in
            leaveFastMode()
            guard !closed, let downstream else { return .done }
            guard demand > 0 else {
                if buffersLatest { buffered = value }
                return .done
            }
            demand -= 1
            buffered = nil
            switch turn.claim(for: thread) {
            case .granted:
                return .deliver(Unmanaged.passUnretained(downstream))
            case .reentrant:
                queue.append(.value(value))
                return .done
            case .wait(let waiter):
                return .wait(waiter)
            }
        }
        let receiver: Unmanaged<Box<Downstream>>
        switch step {
        case .done:
            return
        case .deliver(let granted):
            receiver = granted
        case .wait(let waiter):
            waiter.park()
            guard let granted = resumeTurn(waiter) else { return }
            receiver = granted
        }
        // Unretained: nothing releases the subscriber while the turn is held.
        drain(adding: receiver._withUnsafeGuaranteedRef { $0.value.receive(value) })
    }

    /// What `offer(_:)` does once it has left the lock.
    @usableFromInline
    enum OfferStep {
        case done
        case deliver(Unmanaged<Box<Downstream>>)
        case wait(TurnWaiter)
    }

    /// After a waiter has woken: the subscriber to deliver to if the waiter now holds the turn
    /// and the conduit is still live. A turn handed over to a conduit that has since terminated
    /// is let go here.
    @inlinable
    func resumeTurn(_ waiter: TurnWaiter) -> Unmanaged<Box<Downstream>>? {
        let (receiver, released) = lock.withLockUnchecked { () -> (Unmanaged<Box<Downstream>>?, Box<Downstream>?) in
            guard waiter.granted else { return (nil, nil) }
            guard !terminated, let downstream else {
                turn.letGo()
                defer { downstream = nil }
                return (nil, downstream)
            }
            return (Unmanaged.passUnretained(downstream), nil)
        }
        withExtendedLifetime(released) {}
        return receiver
    }

    @inlinable
    func finish(_ completion: Subscribers.Completion<Failure>) {
        let thread = ThreadIdentity.current
        let step = lock.withLockUnchecked { () -> FinishStep in
            leaveFastMode()
            guard !closed, !terminated else { return .done }
            closed = true
            switch turn.claim(for: thread) {
            case .granted:
                return .deliver(terminate(holdingTurn: true))
            case .reentrant:
                queue.append(.completion(completion))
                return .done
            case .wait(let waiter):
                return .wait(waiter)
            }
        }
        switch step {
        case .done:
            return
        case .deliver(let (downstream, dismissed)):
            for waiter in dismissed { waiter.wake() }
            downstream?.value.receive(completion: completion)
        case .wait(let waiter):
            waiter.park()
            let (receiver, released, dismissed) = lock.withLockUnchecked {
                () -> (Box<Downstream>?, Box<Downstream>?, ArraySlice<TurnWaiter>) in
                guard waiter.granted else { return (nil, nil, []) }
                if terminated {
                    // Cancelled after the turn was handed over.
                    turn.letGo()
                    defer { downstream = nil }
                    return (nil, downstream, [])
                }
                let (receiver, dismissed) = terminate(holdingTurn: true)
                return (receiver, nil, dismissed)
            }
            withExtendedLifetime(released) {}
            for waiter in dismissed { waiter.wake() }
            receiver?.value.receive(completion: completion)
        }
    }

    /// What `finish(_:)` does once it has left the lock.
    @usableFromInline
    enum FinishStep {
        case done
        case deliver((Box<Downstream>?, ArraySlice<TurnWaiter>))
        case wait(TurnWaiter)
    }

    /// Leaves the fast mode; call with the lock held. The thread of a fast delivery under way
    /// becomes the holder of the turn.
    @inlinable
    func leaveFastMode() {
        let previous = mode.exchange(Mode.slow, ordering: .acquiringAndReleasing)
        if previous != Mode.slow && previous != Mode.fastIdle {
            turn.holder = previous
        }
    }

    /// Lets the turn go and returns to the fast mode if nothing stands in its way; call with
    /// the lock held, with nobody waiting.
    @inlinable
    func stopDelivering() {
        turn.letGo()
        if demand == .unlimited, !closed, !terminated, buffered == nil {
            mode.store(Mode.fastIdle, ordering: .releasing)
        }
    }

    /// Marks the conduit finished; hands back the subscriber to be released (or completed)
    /// outside the lock, and the waiters to wake. Call with the lock held. A caller that holds
    /// the turn lets it go; otherwise, while a delivery is under way, the subscriber stays and
    /// that delivery releases it when it returns.
    @inlinable
    func terminate(holdingTurn: Bool) -> (Box<Downstream>?, ArraySlice<TurnWaiter>) {
        terminated = true
        closed = true
        buffered = nil
        core = nil
        queue = []
        queueHead = 0
        let dismissed = turn.dismissAll()
        if holdingTurn {
            turn.letGo()
        } else if turn.isHeld {
            return (nil, dismissed)
        }
        defer { downstream = nil }
        return (downstream, dismissed)
    }

    /// Adds the demand the subscriber returned, then, holding the turn, delivers the queued
    /// events, hands the turn to the next waiting thread or delivers the buffered value, and
    /// lets the turn go when there is nothing left; releases the subscriber if the conduit was
    /// cancelled during a delivery.
    @inlinable
    func drain(adding additional: Subscribers.Demand) {
        var additional = additional
        while true {
            let next = lock.withLockUnchecked { () -> DrainStep in
                demand += additional
                if terminated {
                    turn.letGo()
                    defer { downstream = nil }
                    return .release(downstream)
                }
                let receiver = Unmanaged.passUnretained(downstream!)
                if queueHead < queue.count {
                    let event = queue[queueHead]
                    queueHead += 1
                    switch event {
                    case .value(let value):
                        return .value(receiver, value)
                    case .completion(let completion):
                        let (downstream, dismissed) = terminate(holdingTurn: true)
                        return .completion(downstream!, completion, dismissed)
                    }
                }
                if !queue.isEmpty {
                    queue.removeAll(keepingCapacity: true)
                    queueHead = 0
                }
                if turn.hasWaiters {
                    return .handOver(turn.pass()!)
                }
                if let value = buffered, demand > 0 {
                    buffered = nil
                    demand -= 1
                    return .value(receiver, value)
                }
                stopDelivering()
                return .idle
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
            case .value(let receiver, let value):
                // Unretained: nothing releases the subscriber while the turn is held.
                additional = receiver._withUnsafeGuaranteedRef { $0.value.receive(value) }
            case .completion(let downstream, let completion, let dismissed):
                for waiter in dismissed { waiter.wake() }
                downstream.value.receive(completion: completion)
                return
            }
        }
    }

    /// What `drain(adding:)` does once it has left the lock.
    @usableFromInline
    enum DrainStep {
        /// Nothing more to deliver; the turn is let go.
        case idle
        /// Cancelled during the delivery: let go of the subscriber.
        case release(Box<Downstream>?)
        /// The turn now belongs to a waiting thread: wake it.
        case handOver(TurnWaiter)
        /// Deliver a value.
        case value(Unmanaged<Box<Downstream>>, Output)
        /// Deliver the completion and wake the dismissed waiters; the conduit has already let
        /// go of the subscriber.
        case completion(Box<Downstream>, Subscribers.Completion<Failure>, ArraySlice<TurnWaiter>)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "API Violation: demand must not be zero")
        let action = lock.withLockUnchecked { () -> RequestAction in
            leaveFastMode()
            guard !terminated, let downstream else { return .nothing }
            self.demand += demand
            let notify = !notifiedCore
            notifiedCore = true
            guard !turn.isHeld else { return notify ? .notify : .nothing }
            if let value = buffered {
                buffered = nil
                self.demand -= 1
                turn.holder = ThreadIdentity.current
                return .deliver(downstream, value, notify: notify)
            }
            stopDelivering()
            return notify ? .notify : .nothing
        }
        switch action {
        case .nothing:
            return
        case .notify:
            notifyCore()
        case let .deliver(downstream, value, notify):
            if notify { notifyCore() }
            drain(adding: downstream.value.receive(value))
        }
    }

    /// What `request(_:)` does once it has left the lock.
    @usableFromInline
    enum RequestAction {
        case nothing
        case notify
        case deliver(Box<Downstream>, Output, notify: Bool)
    }

    /// Tells the subject that this subscriber has asked for values.
    @inlinable
    func notifyCore() {
        lock.withLockUnchecked { core }?.conduitReceivedDemand()
    }

    /// Ends the subscription: the subscriber is released at once, or by the delivery under
    /// way when it returns; threads waiting to deliver give up.
    @inlinable
    func cancel() {
        let (released, core, dismissed) = lock.withLockUnchecked {
            () -> (Box<Downstream>?, SubjectCore<Output, Failure>?, ArraySlice<TurnWaiter>) in
            leaveFastMode()
            guard !terminated else { return (nil, nil, []) }
            let core = self.core
            let (released, dismissed) = terminate(holdingTurn: false)
            return (released, core, dismissed)
        }
        for waiter in dismissed { waiter.wake() }
        withExtendedLifetime(released) {}
        core?.remove(self)
    }

    @usableFromInline
    var description: String { buffersLatest ? "CurrentValueSubject" : "PassthroughSubject" }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked {
            Mirror(self, children: ["downstream": downstream?.value as Any, "demand": demand])
        }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
