import Streams

/// The state of a ``ReplaySubjectSubscription``: a value with no lock and no callouts. Each
/// event updates it and returns what the subscription must do once its lock is released.
///
/// Phases:
/// - `subscribed(live)`: values arrive; `finish` → `completing`, or straight to `terminated`
///   when nothing is left to deliver and nobody is delivering; `cancel` → `terminated`.
/// - `completing(live, completion)`: the subject has completed, and values are still to be
///   delivered or a delivery is under way. Until the subscriber's first request the completion
///   waits behind every value still to deliver; from then on it follows only those whose demand
///   has been taken (and those the demand returned meanwhile covers), and the others are
///   dropped (CombineExt's rule). `cancel` → `terminated`.
/// - `terminated`: the subscriber, the subject and the values have been let go.
///
/// Values wait in two queues. `owed` holds values whose demand has been taken, waiting for the
/// thread that delivers (`delivering`); `pending` holds values nobody has asked for yet, the
/// latest `bufferSize` of them (an older one is dropped when a newer one arrives). A value goes
/// to `owed` only while `pending` is empty, and a request moves values from `pending` to `owed`,
/// so the subscriber receives them in the order they were sent. Each value is moved at most
/// once: O(1) per value.
///
/// Deliveries are serial: the thread that finds nobody delivering becomes the deliverer
/// (`delivering`), and values that arrive meanwhile, from that thread's own call into the
/// subscriber or from another thread, are queued for it.
@usableFromInline
struct ReplaySubjectSubscriptionStateMachine<Downstream: Subscriber> {
    @usableFromInline
    typealias Output = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    /// What a live subscription holds.
    @usableFromInline
    struct Live {
        @usableFromInline
        let downstream: Box<Downstream>
        /// The subject, held until the subscription ends.
        @usableFromInline
        let subject: ReplaySubject<Output, Failure>

        @inlinable
        init(downstream: Box<Downstream>, subject: ReplaySubject<Output, Failure>) {
            self.downstream = downstream
            self.subject = subject
        }
    }

    @usableFromInline
    enum Phase {
        case subscribed(Live)
        case completing(Live, Subscribers.Completion<Failure>)
        case terminated
    }

    @usableFromInline
    var phase: Phase
    /// Values whose demand has been taken, for the deliverer.
    @usableFromInline
    var owed: ReplayBuffer<Output>
    /// Values not asked for yet: the latest `bufferSize`.
    @usableFromInline
    var pending: ReplayBuffer<Output>
    /// Requested and not yet taken by a value.
    @usableFromInline
    var demand = Subscribers.Demand.none
    /// A thread is delivering (at first the subscribing one, until it has handed the
    /// subscription over).
    @usableFromInline
    var delivering = true
    /// Whether the subscriber has requested yet.
    @usableFromInline
    var requested = false

    /// A subscription that starts with `replay` (the subject's kept values) pending, and the
    /// subject's `completion` after them if it has completed.
    @inlinable
    init(
        live: Live, replay: ReplayBuffer<Output>, completion: Subscribers.Completion<Failure>?
    ) {
        phase = completion.map { .completing(live, $0) } ?? .subscribed(live)
        owed = ReplayBuffer(limit: .max)
        pending = replay
    }

    /// The subscriber to hand the subscription to.
    @inlinable
    func subscriberToStart() -> Box<Downstream>? {
        switch phase {
        case .subscribed(let live), .completing(let live, _): live.downstream
        case .terminated: nil
        }
    }

    /// Moves what `demand` covers from `pending` to `owed`.
    @inlinable
    mutating func takePending() {
        while demand > 0, let value = pending.removeFirst() {
            demand -= 1
            owed.append(value)
        }
    }

    // MARK: Values

    /// What the subscription does with an offered value.
    @usableFromInline
    enum OfferAction {
        /// Queued, kept for a later request, or ignored: nothing more.
        case none
        /// The caller is the deliverer now: deliver the value, then drain.
        case deliver(Box<Downstream>)
    }

    @inlinable
    mutating func offer(_ value: Output) -> OfferAction {
        guard case .subscribed(let live) = phase else { return .none }
        guard demand > 0, pending.isEmpty else {
            pending.append(value)
            return .none
        }
        demand -= 1
        if delivering {
            owed.append(value)
            return .none
        }
        delivering = true
        return .deliver(live.downstream)
    }

    // MARK: Completion

    /// What the subscription does with the subject's completion.
    @usableFromInline
    enum FinishAction {
        /// Queued behind the values still to deliver, or ignored.
        case none
        /// Deliver the completion; the subscription has terminated. `released` holds the values
        /// dropped, to let go of outside the lock.
        indirect case deliver(Live, Subscribers.Completion<Failure>, released: ReplayBuffer<Output>)
    }

    @inlinable
    mutating func finish(_ completion: Subscribers.Completion<Failure>) -> FinishAction {
        guard case .subscribed(let live) = phase else { return .none }
        // Values not asked for wait only for a subscriber that has not requested yet.
        if !delivering, owed.isEmpty, pending.isEmpty || requested {
            phase = .terminated
            return .deliver(live, completion, released: takeAllPending())
        }
        phase = .completing(live, completion)
        return .none
    }

    /// Empties `pending`, returning what it held.
    @inlinable
    mutating func takeAllPending() -> ReplayBuffer<Output> {
        let taken = pending
        pending = ReplayBuffer(limit: pending.limit)
        return taken
    }

    // MARK: Delivering

    /// The deliverer's next step.
    @usableFromInline
    enum DrainAction {
        /// Nothing more to deliver: the deliverer has stopped.
        case idle
        /// Deliver this value.
        case value(Box<Downstream>, Output)
        /// Deliver the completion; the subscription has terminated. `released` holds the values
        /// dropped, to let go of outside the lock. Boxed (`indirect`), so that the action of every
        /// value stays as small as the value case: inline, the buffer cost each delivery about
        /// 16 instructions more per subscriber (W11).
        indirect case completion(Live, Subscribers.Completion<Failure>, released: ReplayBuffer<Output>)
    }

    /// The deliverer returned from the subscriber with `additional` demand.
    @inlinable
    mutating func drain(adding additional: Subscribers.Demand) -> DrainAction {
        let live: Live
        switch phase {
        case .subscribed(let current), .completing(let current, _): live = current
        case .terminated:
            delivering = false
            return .idle
        }
        demand += additional
        takePending()
        if let value = owed.removeFirst() {
            return .value(live.downstream, value)
        }
        delivering = false
        if case .completing(_, let completion) = phase, pending.isEmpty || requested {
            phase = .terminated
            return .completion(live, completion, released: takeAllPending())
        }
        return .idle
    }

    // MARK: Requests and cancel

    /// What the subscription does with a request.
    @usableFromInline
    enum RequestAction {
        /// Nothing more (the deliverer, if any, delivers what the demand covers).
        case none
        /// The caller is the deliverer now: deliver this value, then drain.
        case deliver(Box<Downstream>, Output)
    }

    @inlinable
    mutating func request(_ additional: Subscribers.Demand) -> RequestAction {
        let live: Live
        switch phase {
        case .subscribed(let current), .completing(let current, _): live = current
        case .terminated: return .none
        }
        requested = true
        demand += additional
        takePending()
        guard !delivering, let value = owed.removeFirst() else { return .none }
        delivering = true
        return .deliver(live.downstream, value)
    }

    /// Everything a cancelled subscription lets go of, to release outside the lock.
    @usableFromInline
    struct Remains {
        @usableFromInline
        let live: Live
        @usableFromInline
        let owed: ReplayBuffer<Output>
        @usableFromInline
        let pending: ReplayBuffer<Output>

        @inlinable
        init(live: Live, owed: ReplayBuffer<Output>, pending: ReplayBuffer<Output>) {
            self.live = live
            self.owed = owed
            self.pending = pending
        }
    }

    /// `cancel()`: nil when already terminated.
    @inlinable
    mutating func cancel() -> Remains? {
        let live: Live
        switch phase {
        case .subscribed(let current), .completing(let current, _): live = current
        case .terminated: return nil
        }
        phase = .terminated
        let remains = Remains(live: live, owed: owed, pending: pending)
        owed = ReplayBuffer(limit: .max)
        pending = ReplayBuffer(limit: pending.limit)
        return remains
    }
}
