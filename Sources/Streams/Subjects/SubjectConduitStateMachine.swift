/// The state of a ``SubjectConduit``: a value with no lock and no callouts. Each event method
/// updates it and returns what the conduit must do once its lock is released.
///
/// Phases, and the events that move between them:
/// - `subscribed`: values and requests go through; `finish` → `completing`, or straight to `terminated`
///   when the finishing thread gets the turn at once; `cancel` → `terminated`.
/// - `completing`: the completion is queued behind the delivery under way, or its thread waits for
///   the turn; values and requests are ignored. Delivering the completion, or `cancel`, →
///   `terminated`.
/// - `terminated`: the subject, the core and the subscriber have been let go, except that a
///   delivery still under way keeps the subscriber (`retained`) until it returns.
///
/// Who delivers is tracked apart from the phase, in ``DeliveryTurn``, with the events that
/// were sent re-entrantly by the turn's holder (`queue`, their demand already counted). So are
/// the demand and, for subjects with a current value, whether the subscriber is owed it
/// (`behind`): those change on the value path and are kept out of the phase's payload so that
/// a value costs no copy of it. For the same reason the actions that deliver a value name no
/// subscriber: the conduit keeps it unretained, and the machine keeps it alive while the turn is
/// held.
///
/// The machine is not generic: it holds the subscriber's box (a `Box<Downstream>`), the subject
/// and its core as objects, and each queued event in a box of its own (`Box<Output>` or
/// `Box<Subscribers.Completion<Failure>>`), which only the conduit's typed code opens. A
/// subscription's `cancel()` and `request(_:)` are called through `any Subscription`, in the
/// conduit's unspecialised code, where a generic machine, and the lock around it, cost a type
/// metadata lookup at every use (about 15 per subscribe-and-cancel cycle, half its
/// instructions).
@usableFromInline
struct SubjectConduitStateMachine {
    /// What a live conduit holds.
    @usableFromInline
    struct Live {
        /// The subscriber's `Box<Downstream>`.
        @usableFromInline
        let downstream: AnyObject
        /// The subject the subscriber subscribed to, held strongly until the end (Combine's
        /// `parent` and `subject`).
        @usableFromInline
        let subject: AnyObject
        /// The subject's `SubjectCore`.
        @usableFromInline
        let core: SubjectRoster

        @inlinable
        init(downstream: AnyObject, subject: AnyObject, core: SubjectRoster) {
            self.downstream = downstream
            self.subject = subject
            self.core = core
        }
    }

    @usableFromInline
    enum Phase {
        case subscribed(Live)
        case completing(Live)
        /// `retained` is the subscriber's box while a delivery under way still uses it.
        case terminated(retained: AnyObject?)
    }

    /// An event sent re-entrantly, delivered by the call under way: a `Box<Output>`, or a
    /// `Box<Subscribers.Completion<Failure>>` if `isCompletion`.
    @usableFromInline
    struct Event {
        @usableFromInline
        let box: AnyObject
        @usableFromInline
        let isCompletion: Bool

        @inlinable
        init(box: AnyObject, isCompletion: Bool) {
            self.box = box
            self.isCompletion = isCompletion
        }
    }

    @usableFromInline
    var phase: Phase
    /// Held by the subscribing thread until the subscription has been handed over.
    @usableFromInline
    var turn: DeliveryTurn
    @usableFromInline
    var queue: [Event] = []
    @usableFromInline
    var queueHead = 0
    /// Requested and not yet taken by a value.
    @usableFromInline
    var demand = Subscribers.Demand.none
    /// The subscriber missed a value and is owed the subject's current value on its next
    /// request (kinds that replay it).
    @usableFromInline
    var behind: Bool
    /// A request came while the subscriber was `behind` and a delivery held the turn: the
    /// turn's holder delivers the current value before letting go. Demand a delivery returns
    /// does not deliver it: it serves only values sent after it.
    @usableFromInline
    var requestedWhileBehind = false
    /// The core has been told that this subscriber asked for values.
    @usableFromInline
    var toldCore = false
    /// Whether the subject replays its current value (``SubjectKind/replaysCurrent``). The
    /// one-byte fields are kept together, after the words, so that the state packs tightly.
    @usableFromInline
    let replaysCurrent: Bool

    @inlinable
    init(kind: SubjectKind, live: Live, subscribingThread: Int) {
        phase = .subscribed(live)
        turn = DeliveryTurn(holder: subscribingThread)
        replaysCurrent = kind.replaysCurrent
        behind = replaysCurrent
    }

    /// Whether values may bypass the lock: unlimited demand, nobody delivering, nothing queued
    /// or owed.
    @inlinable
    var allowsFastDelivery: Bool {
        guard case .subscribed = phase else { return false }
        return demand == .unlimited && !behind && !turn.isHeld && queueHead == queue.count
    }

    /// A lock-free delivery by `thread` was under way when the conduit took its lock: that
    /// thread holds the turn from now on.
    @inlinable
    mutating func fastDeliveryInterrupted(by thread: Int) {
        turn.holder = thread
    }

    /// The subscriber's box, to hand the subscription to.
    @inlinable
    func subscriberToStart() -> AnyObject? {
        guard case .subscribed(let live) = phase else { return nil }
        return live.downstream
    }

    // MARK: Values

    /// What the conduit does with an offered value.
    @usableFromInline
    enum OfferAction {
        /// Dropped, ignored or queued: nothing more.
        case none
        /// The caller holds the turn: deliver to the subscriber, then drain.
        case deliver
        /// Park on the waiter, then ``resume(_:)``.
        case wait(TurnWaiter)
    }

    /// A value sent by `thread`: it takes one unit of demand or is dropped (a subject with a
    /// current value remembers that the subscriber is behind). It is boxed only if queued.
    @inlinable
    mutating func offer<Output>(_ value: Output, from thread: Int) -> OfferAction {
        guard case .subscribed = phase else { return .none }
        guard demand > 0 else {
            if replaysCurrent {
                behind = true
                requestedWhileBehind = false
            }
            return .none
        }
        demand -= 1
        behind = false
        switch turn.claim(for: thread) {
        case .granted:
            return .deliver
        case .reentrant, .queue:
            queue.append(Event(box: Box(value), isCompletion: false))
            return .none
        case .wait(let waiter):
            return .wait(waiter)
        }
    }

    /// What a woken waiter does.
    @usableFromInline
    enum ResumeAction {
        /// Dismissed: nothing.
        case none
        /// Granted the turn on a live conduit: deliver, then drain.
        case deliver
        /// Granted the turn after the conduit terminated: the turn is let go; release this.
        case release(AnyObject?)
    }

    /// A waiter of ``offer(_:from:)`` has woken.
    @inlinable
    mutating func resume(_ waiter: TurnWaiter) -> ResumeAction {
        guard waiter.granted else { return .none }
        switch phase {
        case .subscribed, .completing:
            return .deliver
        case .terminated(let retained):
            turn.letGo()
            phase = .terminated(retained: nil)
            return .release(retained)
        }
    }

    // MARK: Completion

    /// Everything a terminating conduit lets go of, to be completed, woken or released outside
    /// the lock.
    @usableFromInline
    struct Remains {
        /// The subscriber's box; nil while a delivery under way still uses the subscriber.
        @usableFromInline
        let downstream: AnyObject?
        @usableFromInline
        let subject: AnyObject
        @usableFromInline
        let core: SubjectRoster
        @usableFromInline
        let dismissed: ArraySlice<TurnWaiter>

        @inlinable
        init(downstream: AnyObject?, subject: AnyObject, core: SubjectRoster, dismissed: ArraySlice<TurnWaiter>) {
            self.downstream = downstream
            self.subject = subject
            self.core = core
            self.dismissed = dismissed
        }
    }

    /// What the conduit does with `send(completion:)`.
    @usableFromInline
    enum FinishAction {
        /// Ignored or queued.
        case none
        /// Complete the subscriber (`downstream` is set: the caller held the turn).
        case deliver(Remains)
        /// Park on the waiter, then ``resumeFinish(_:)``.
        case wait(TurnWaiter)
    }

    /// `send(completion:)` by `thread`; the completion is boxed only if queued.
    @inlinable
    mutating func finish<Failure>(_ completion: Subscribers.Completion<Failure>, from thread: Int) -> FinishAction {
        guard case .subscribed(let live) = phase else { return .none }
        phase = .completing(live)
        switch turn.claim(for: thread) {
        case .granted:
            return .deliver(terminate(holdingTurn: true))
        case .reentrant, .queue:
            queue.append(Event(box: Box(completion), isCompletion: true))
            return .none
        case .wait(let waiter):
            return .wait(waiter)
        }
    }

    /// What a woken waiter of ``finish(_:from:)`` does.
    @usableFromInline
    enum FinishResumeAction {
        case none
        /// Complete the subscriber.
        case deliver(Remains)
        /// Cancelled after the turn was handed over: release this.
        case release(AnyObject?)
    }

    @inlinable
    mutating func resumeFinish(_ waiter: TurnWaiter) -> FinishResumeAction {
        guard waiter.granted else { return .none }
        switch phase {
        case .subscribed:
            preconditionFailure("SubjectConduitStateMachine internal inconsistency: a completion waited on a live conduit")
        case .completing:
            return .deliver(terminate(holdingTurn: true))
        case .terminated(let retained):
            turn.letGo()
            phase = .terminated(retained: nil)
            return .release(retained)
        }
    }

    /// Moves to `terminated`. A caller that holds the turn lets it go; otherwise, while a
    /// delivery is under way, the subscriber stays for that delivery to release.
    @inlinable
    mutating func terminate(holdingTurn: Bool) -> Remains {
        let live: Live
        switch phase {
        case .subscribed(let current), .completing(let current):
            live = current
        case .terminated:
            preconditionFailure("SubjectConduitStateMachine internal inconsistency: terminated twice")
        }
        queue = []
        queueHead = 0
        behind = false
        let dismissed = turn.dismissAll()
        var downstream: AnyObject? = live.downstream
        if holdingTurn {
            turn.letGo()
            phase = .terminated(retained: nil)
        } else if turn.isHeld {
            phase = .terminated(retained: live.downstream)
            downstream = nil
        } else {
            phase = .terminated(retained: nil)
        }
        return Remains(downstream: downstream, subject: live.subject, core: live.core, dismissed: dismissed)
    }

    /// `cancel()`: nil if already terminated.
    @inlinable
    mutating func cancel() -> Remains? {
        if case .terminated = phase { return nil }
        return terminate(holdingTurn: false)
    }

    // MARK: Delivering

    /// The next thing the turn's holder does.
    @usableFromInline
    enum DrainAction {
        /// Nothing more: the turn is let go; `fast` if values may bypass the lock again.
        case idle(fast: Bool)
        /// Terminated during the delivery: the turn is let go; release the subscriber.
        case release(AnyObject?)
        /// The turn now belongs to a waiting thread: wake it.
        case handOver(TurnWaiter)
        /// Deliver a queued value, in its `Box<Output>`.
        case value(AnyObject)
        /// Deliver the subject's current value, read from the core outside the lock.
        case current(SubjectRoster)
        /// Deliver the completion, in its `Box<Subscribers.Completion<Failure>>`; the conduit has
        /// terminated.
        case completion(Remains, AnyObject)
    }

    /// The turn's holder returned from the subscriber with `additional` demand.
    @inlinable
    mutating func drain(adding additional: Subscribers.Demand) -> DrainAction {
        demand += additional
        if case .terminated(let retained) = phase {
            turn.letGo()
            phase = .terminated(retained: nil)
            return .release(retained)
        }
        if queueHead < queue.count {
            let event = queue[queueHead]
            queueHead += 1
            if event.isCompletion {
                return .completion(terminate(holdingTurn: true), event.box)
            }
            return .value(event.box)
        }
        if !queue.isEmpty {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
        }
        if turn.hasWaiters {
            return .handOver(turn.pass()!)
        }
        if behind, requestedWhileBehind, demand > 0, case .subscribed(let live) = phase {
            behind = false
            requestedWhileBehind = false
            demand -= 1
            return .current(live.core)
        }
        turn.letGo()
        return .idle(fast: allowsFastDelivery)
    }

    // MARK: Requests and cancel

    /// What the conduit does with a request.
    @usableFromInline
    enum RequestAction {
        /// Nothing more; `fast` if values may bypass the lock again.
        case none(fast: Bool)
        /// Tell the core that a subscriber asked for values (its first request); `fast` as above.
        case notify(SubjectRoster, fast: Bool)
        /// The caller took the turn: deliver the current value read from the core, then drain;
        /// `notify` the core first if this is the first request.
        case deliverCurrent(SubjectRoster, notify: Bool)
    }

    @inlinable
    mutating func request(_ additional: Subscribers.Demand, from thread: Int) -> RequestAction {
        guard case .subscribed(let live) = phase else { return .none(fast: false) }
        demand += additional
        let notify = !toldCore
        toldCore = true
        if behind {
            guard turn.isHeld else {
                behind = false
                demand -= 1
                turn.holder = thread
                return .deliverCurrent(live.core, notify: notify)
            }
            // A delivery is under way: its thread delivers what is owed before it lets go.
            requestedWhileBehind = true
        }
        let fast = allowsFastDelivery
        return notify ? .notify(live.core, fast: fast) : .none(fast: fast)
    }
}
