/// A phase of a ``FlatMapStateMachine``.
///
/// Its data is kept beside it in the machine (`upstream` while `subscribed`, `pendingFailure`
/// while `completing`): the per-value path tests the phase several times, and a phase with an
/// existential payload costs a value-witness copy for each test (Docs/Performance.md has the
/// measured cost).
@usableFromInline
enum FlatMapPhase {
    /// The downstream has the subscription; the upstream's has not arrived.
    case awaitingSubscription
    /// The upstream (`upstream`) may send more publishers.
    case subscribed
    /// The upstream finished: waiting for the children and the buffer.
    case upstreamFinished
    /// A completion (`.finished` when `pendingFailure` is nil) is decided; the thread that holds
    /// the delivery turn sends it.
    case completing
    /// Completed or cancelled.
    case terminated
}

/// What a child's value leads to in a ``FlatMapStateMachine``.
@usableFromInline
enum FlatMapValueStep {
    /// Dropped, or buffered: return `.none`.
    case none
    /// This thread holds the turn: deliver the value, then drain. Under unlimited demand
    /// return `.none`, else add the downstream's answer and return `.max(1)`.
    case deliver(AnyObject, unlimited: Bool)
    /// This thread holds the turn but the value was buffered or dropped: drain.
    case drain
    /// Another thread delivers: park, then report with `childValueAfterWait`.
    case wait(TurnWaiter)
}

/// The state of a ``FlatMapSubscription``: a value with no lock and no callouts. Each event
/// method updates it and returns what the subscription must do once the lock is released.
///
/// Phases, and the events that move between them:
/// - `awaitingSubscription`: the downstream has the subscription. The upstream's subscription →
///   `subscribed`; the upstream finishing → `upstreamFinished` (or completing, when nothing is left).
/// - `subscribed`: the upstream may send more publishers. It finishing → `upstreamFinished`.
/// - `upstreamFinished`: waiting for the children and the buffer; the last of them → completing.
/// - `completing`: a completion is decided while a thread is delivering to the downstream; that
///   thread sends it once its delivery returns → `terminated`.
/// - `terminated`: completed or cancelled; every event is ignored.
///
/// A failure (of the upstream or of a child) and `cancel` lead from every live phase to
/// completing or terminated. Across phases the machine keeps the children (by index; a child
/// whose subscription has not arrived is `awaitingSubscription`, and the newest child is kept
/// apart, in `newestChild`, until the next one starts), the downstream's demand, the values no
/// demand was left for, and whose turn it is to deliver (``DeliveryTurn``): the
/// downstream is called by one thread at a time, a value arriving re-entrantly (from inside the
/// downstream, or from inside a child's `request` made while holding the turn) is buffered, and
/// a value from another thread waits for the turn (or is buffered, when waiting would deadlock:
/// ``DeliveryTurn/Claim/queue``).
///
/// `Resources` (the downstream and the transform) are held until terminated.
@usableFromInline
struct FlatMapStateMachine<Value, Failure: Error> {
    @usableFromInline
    typealias Resources = AnyObject
    @usableFromInline
    typealias Completion = Subscribers.Completion<Failure>

    @usableFromInline
    var phase = FlatMapPhase.awaitingSubscription
    /// The upstream's subscription while `subscribed`, else `terminated` (or awaiting it).
    @usableFromInline
    var upstream = SubscriptionStatus.awaitingSubscription
    /// The failure to send while `completing`; nil for `.finished`.
    @usableFromInline
    var pendingFailure: (any Error)?
    /// The live children but the newest, by index; `awaitingSubscription` until their
    /// subscription arrives.
    @usableFromInline
    var children: [Int: SubscriptionStatus] = [:]
    /// The index of the child the upstream sent last, or -1 once it is done; it moves into
    /// ``children`` when the upstream sends another publisher. The upstream sends one publisher
    /// at a time, and a child that is done before the next (`Just`, `Empty`, a `Future`
    /// fulfilled at once, a request answered before the next keystroke) is kept here and never
    /// hashed into ``children`` and out again (about 275 instructions a value).
    @usableFromInline
    var newestChild = -1
    /// The subscription status of ``newestChild``: `awaitingSubscription` unless
    /// ``newestSubscribed``.
    @usableFromInline
    var newestStatus = SubscriptionStatus.awaitingSubscription
    /// Whether ``newestStatus`` holds a subscription. Kept beside it so that the path of a child
    /// that never subscribes (`flatMap { Just($0) }`) tests a flag, rather than copying an enum
    /// whose payload is an existential through its value witnesses.
    @usableFromInline
    var newestSubscribed = false
    @usableFromInline
    var nextChild = 0
    /// Requested by the downstream and not yet delivered.
    @usableFromInline
    var demand = Subscribers.Demand.none
    /// Values no demand was left for, or that arrived re-entrantly, with their child.
    @usableFromInline
    var buffer: [(value: Value, child: Int)] = []
    @usableFromInline
    var bufferHead = 0
    @usableFromInline
    var turn = DeliveryTurn()
    /// Whether a finished child makes room for one more publisher (`maxPublishers` is limited).
    @usableFromInline
    let asksForMorePublishers: Bool
    @usableFromInline
    var resources: Resources?

    @inlinable
    init(maxPublishers: Subscribers.Demand, resources: Resources) {
        asksForMorePublishers = maxPublishers != .unlimited
        self.resources = resources
    }

    @inlinable
    var bufferedCount: Int { buffer.count - bufferHead }

    /// Whether events are still processed.
    @inlinable
    var isLive: Bool {
        switch phase {
        case .awaitingSubscription, .subscribed, .upstreamFinished: true
        case .completing, .terminated: false
        }
    }

    /// Decides `completion` after cancelling `cancel`: sent at once when nobody is delivering,
    /// else left to the thread that is.
    @inlinable
    mutating func conclude(_ completion: Completion, cancel: [any Subscription]) -> ChildrenEnding {
        let released: Any = (children, newestStatus, buffer, upstream)
        forgetChildren()
        upstream = .terminated
        if case .failure = completion {
            buffer = []
            bufferHead = 0
        }
        guard !turn.isHeld else {
            if case .failure(let error) = completion { pendingFailure = error }
            phase = .completing
            return ChildrenEnding(resources: nil, cancel: cancel, released: released)
        }
        phase = .terminated
        defer { resources = nil }
        return ChildrenEnding(resources: resources, cancel: cancel, released: released)
    }

    /// Whether the upstream and every child have finished and nothing is buffered.
    @inlinable
    var isDone: Bool {
        guard case .upstreamFinished = phase else { return false }
        return children.isEmpty && newestChild < 0 && bufferedCount == 0
    }

    /// The subscriptions of the live children but child `excluded`.
    @inlinable
    func childSubscriptions(except excluded: Int = -1) -> [any Subscription] {
        var subscriptions = children.compactMap { $0.key == excluded ? nil : $0.value.subscription }
        if newestSubscribed, newestChild != excluded, let subscription = newestStatus.subscription {
            subscriptions.append(subscription)
        }
        return subscriptions
    }

    /// Forgets the newest child (it finished, or moved into ``children``).
    @inlinable
    mutating func forgetNewestChild() {
        newestChild = -1
        if newestSubscribed {
            newestSubscribed = false
            newestStatus = .awaitingSubscription
        }
    }

    /// Drops every child.
    @inlinable
    mutating func forgetChildren() {
        children = [:]
        forgetNewestChild()
    }

    // MARK: Upstream

    /// The upstream's subscription arrived: true to ask it for `maxPublishers`, false to cancel it.
    @inlinable
    mutating func upstreamSubscribed(_ subscription: any Subscription) -> Bool {
        guard case .awaitingSubscription = phase else { return false }
        phase = .subscribed
        upstream = .subscribed(subscription)
        return true
    }

    /// What to do with a publisher from upstream.
    @usableFromInline
    enum UpstreamValueAction {
        /// The upstream is done, or the stream is over: the publisher is ignored.
        case ignore
        /// Subscribe to the publisher made from the value as child `child`.
        case subscribe(child: Int, Resources)
    }

    /// The upstream sent a value: the index of the child to subscribe and the transform's owner.
    @inlinable
    mutating func upstreamSentValue() -> UpstreamValueAction {
        switch phase {
        case .awaitingSubscription, .subscribed:
            guard let resources else {
                preconditionFailure("FlatMapStateMachine: internal inconsistency: live without resources")
            }
            let index = nextChild
            nextChild += 1
            if newestChild >= 0 {
                children[newestChild] = newestStatus
                forgetNewestChild()
            }
            newestChild = index
            return .subscribe(child: index, resources)
        case .upstreamFinished, .completing, .terminated:
            return .ignore
        }
    }

    /// The upstream finished: the completion to send, if nothing is left.
    @inlinable
    mutating func upstreamFinished() -> ChildrenEnding? {
        switch phase {
        case .awaitingSubscription, .subscribed:
            phase = .upstreamFinished
            upstream = .terminated
            return isDone ? conclude(.finished, cancel: []) : nil
        case .upstreamFinished, .completing, .terminated:
            return nil
        }
    }

    /// The upstream failed: every child is cancelled (not the upstream) and the failure sent.
    @inlinable
    mutating func upstreamFailed(_ completion: Completion) -> ChildrenEnding? {
        switch phase {
        case .awaitingSubscription, .subscribed:
            return conclude(completion, cancel: childSubscriptions())
        case .upstreamFinished, .completing, .terminated:
            return nil
        }
    }

    // MARK: Children

    /// Child `index` sent its subscription: the demand to ask it for, or nil to cancel it.
    @inlinable
    mutating func childSubscribed(_ index: Int, _ subscription: any Subscription) -> Subscribers.Demand? {
        guard isLive else { return nil }
        if index == newestChild {
            guard !newestSubscribed else { return nil }
            newestSubscribed = true
            newestStatus = .subscribed(subscription)
        } else {
            guard let slot = children.index(forKey: index), case .awaitingSubscription = children.values[slot] else {
                return nil
            }
            children.values[slot] = .subscribed(subscription)
        }
        return demand == .unlimited ? .unlimited : .max(1)
    }

    /// Child `index` sent `value` on `thread`.
    @inlinable
    mutating func childSentValue(_ value: Value, from index: Int, thread: Int) -> FlatMapValueStep {
        guard isLive else { return .none }
        if demand == .unlimited {
            switch turn.claim(for: thread) {
            case .granted: return deliver()
            case .reentrant, .queue: break
            case .wait(let waiter): return .wait(waiter)
            }
        } else if demand > 0, turn.holder != thread {
            switch turn.claim(for: thread) {
            case .granted: return deliver()
            case .reentrant, .queue: break
            case .wait(let waiter): return .wait(waiter)
            }
        }
        // No demand, or re-entrant: buffered.
        buffer.append((value, index))
        return .none
    }

    /// The value a waiting thread brought, now that it has the turn (`granted`) or was sent away.
    @inlinable
    mutating func childValueAfterWait(_ value: Value, from index: Int, granted: Bool) -> FlatMapValueStep {
        guard granted else { return .none }
        guard isLive else { return .drain }
        guard demand > 0 else {
            buffer.append((value, index))
            return .drain
        }
        return deliver()
    }

    /// Takes one unit of demand for a value delivered now; call holding the turn.
    @inlinable
    mutating func deliver() -> FlatMapValueStep {
        guard let resources else {
            preconditionFailure("FlatMapStateMachine: internal inconsistency: live without resources")
        }
        if demand == .unlimited { return .deliver(resources, unlimited: true) }
        demand -= 1
        return .deliver(resources, unlimited: false)
    }

    @usableFromInline
    enum DrainStep {
        /// Deliver a buffered value, then ask `child` for one more (limited demand).
        case deliver(Resources, Value, child: SubscriptionStatus)
        /// Send the completion; the turn is let go.
        case complete(ChildrenEnding, failure: (any Error)?)
        /// The turn was handed to a waiting thread: wake it.
        case handOver(TurnWaiter)
        /// The turn was let go.
        case stop
    }

    /// The thread holding the turn is back from the downstream, which asked for `additional`:
    /// what it delivers next, or how it lets go of the turn.
    @inlinable
    mutating func nextDelivery(adding additional: Subscribers.Demand) -> DrainStep {
        switch phase {
        case .terminated:
            turn.letGo()
            return .stop
        case .completing:
            defer { pendingFailure = nil }
            return complete(failure: pendingFailure)
        case .awaitingSubscription, .subscribed, .upstreamFinished:
            break
        }
        demand += additional
        if bufferedCount > 0, demand > 0, let resources {
            let next = buffer[bufferHead]
            bufferHead += 1
            if bufferHead == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                bufferHead = 0
            }
            guard demand != .unlimited else { return .deliver(resources, next.value, child: .terminated) }
            demand -= 1
            let child = next.child == newestChild ? newestStatus : children[next.child] ?? .terminated
            return .deliver(resources, next.value, child: child)
        }
        if isDone { return complete(failure: nil) }
        if let waiter = turn.pass() { return .handOver(waiter) }
        return .stop
    }

    /// The common case of ``nextDelivery(adding:)``, without its generic result: adds
    /// `additional` and lets go of the turn when nothing else is due. False (and nothing
    /// changed) when the drain must run.
    @inlinable
    mutating func letGoIfIdle(adding additional: Subscribers.Demand) -> Bool {
        guard isLive, bufferedCount == 0, !turn.hasWaiters, !isDone else { return false }
        demand += additional
        turn.letGo()
        return true
    }

    /// Sends the completion (`.finished` when `failure` is nil) from the thread holding the
    /// turn, which lets it go.
    @inlinable
    mutating func complete(failure: (any Error)?) -> DrainStep {
        phase = .terminated
        let dismissed = turn.dismissAll()
        turn.letGo()
        defer { resources = nil }
        let released: Any = (children, newestStatus, buffer)
        forgetChildren()
        buffer = []
        bufferHead = 0
        return .complete(
            ChildrenEnding(resources: resources, cancel: [], dismissed: dismissed, released: released), failure: failure)
    }

    /// What a finished child leads to.
    @usableFromInline
    enum ChildFinishedAction {
        /// Nothing more to do.
        case none
        /// Ask the upstream for one more publisher.
        case askForMore(SubscriptionStatus)
        /// Nothing is left: end with `.finished`.
        case end(ChildrenEnding)
    }

    /// Child `index` finished: the upstream to ask for one more publisher (limited
    /// `maxPublishers`), or the completion to send when nothing is left. Every `.finished`
    /// counts, even a repeated one.
    @inlinable
    mutating func childFinished(_ index: Int) -> ChildFinishedAction {
        guard isLive else { return .none }
        if index == newestChild {
            forgetNewestChild()
        } else {
            children.removeValue(forKey: index)
        }
        if isDone { return .end(conclude(.finished, cancel: [])) }
        guard asksForMorePublishers, case .subscribed = phase else { return .none }
        return .askForMore(upstream)
    }

    /// Child `index` failed: the other children are cancelled (not the failed one, not the
    /// upstream) and the failure sent.
    @inlinable
    mutating func childFailed(_ index: Int, _ completion: Completion) -> ChildrenEnding? {
        guard isLive else { return nil }
        return conclude(completion, cancel: childSubscriptions(except: index))
    }

    // MARK: Downstream

    @usableFromInline
    enum RequestStep {
        case none
        /// Drain the buffer if `drain` (this thread took the turn), then ask each of
        /// `children` for unlimited values.
        case proceed(drain: Bool, children: [any Subscription])
    }

    /// The downstream asked for `additional` on `thread`.
    @inlinable
    mutating func requested(_ additional: Subscribers.Demand, thread: Int) -> RequestStep {
        guard isLive else { return .none }
        // From inside the downstream (or a drain on this thread): only adds demand.
        guard turn.holder != thread else {
            demand += additional
            return .none
        }
        var unlimitedChildren: [any Subscription] = []
        if additional == .unlimited {
            demand = .unlimited
            unlimitedChildren = childSubscriptions()
        } else {
            demand += additional
        }
        // A thread that holds the turn drains what the new demand allows when it is done.
        guard bufferedCount > 0, !turn.isHeld else { return .proceed(drain: false, children: unlimitedChildren) }
        turn.holder = thread
        return .proceed(drain: true, children: unlimitedChildren)
    }

    /// The downstream cancelled: everything is let go and the subscriptions are cancelled.
    @inlinable
    mutating func cancelled() -> ChildrenEnding? {
        if case .terminated = phase { return nil }
        var cancel = childSubscriptions()
        if let subscription = upstream.subscription { cancel.append(subscription) }
        upstream = .terminated
        pendingFailure = nil
        let released: Any = (children, newestStatus, buffer)
        phase = .terminated
        forgetChildren()
        buffer = []
        bufferHead = 0
        defer { resources = nil }
        return ChildrenEnding(
            resources: nil, cancel: cancel, dismissed: turn.dismissAll(), released: (released, resources as Any))
    }
}
