/// What ``PassthroughSubject`` and ``CurrentValueSubject`` share: the conduits to their
/// subscribers, the completion, the upstream subscriptions they were given and, for
/// `CurrentValueSubject`, the current value, all under one lock.
///
/// The upstream subscriptions are kept, also after the completion (as in Combine), and
/// cancelled when the core goes away: each live conduit keeps its subject, and so the core,
/// alive. The exception is a subscription that tells the subject it has ended (see
/// ``UpstreamKeepingSubject``), such as the one `subscribe(_:)` makes for a subject, or each
/// connection of a multicast: it is let go at once, so that reconnecting does not pile them up.
///
/// Conduits and upstream subscriptions are kept in ``KeyedList``s: in the order they came, and
/// removed by key in O(log n) with nothing shifted. A value goes to the conduits in the order
/// they subscribed, walking a snapshot of the list's elements, where a removed conduit is a
/// placeholder that ignores it.
@usableFromInline
final class SubjectCore<Output, Failure: Error>: Sendable {
    @usableFromInline
    typealias Conduits = KeyedList<SubjectConduitEntry<Output, Failure>>
    /// The conduits a value or the completion goes to.
    @usableFromInline
    typealias Snapshot = ContiguousArray<SubjectConduitEntry<Output, Failure>>
    @usableFromInline
    typealias Upstreams = KeyedList<any Subscription>

    /// What the lock guards.
    @usableFromInline
    struct State {
        /// `CurrentValueSubject`'s value; always nil for `PassthroughSubject`.
        @usableFromInline
        var current: Output?
        @usableFromInline
        var conduits = Conduits(placeholder: .removed)
        @usableFromInline
        var completion: Subscribers.Completion<Failure>?
        @usableFromInline
        var upstreamSubscriptions = Upstreams(placeholder: Subscriptions.empty)
        @usableFromInline
        var hasDownstreamDemand = false

        @inlinable
        init(current: Output?) {
            self.current = current
        }
    }

    @usableFromInline
    let kind: SubjectKind
    @usableFromInline
    let state: LockedState<State>

    @inlinable
    init(current: Output?, kind: SubjectKind) {
        state = LockedState(State(current: current))
        self.kind = kind
    }

    /// The current value of a subject that has one.
    @inlinable
    var currentValue: Output {
        state.withLock { $0.current! }
    }

    deinit {
        for subscription in state.withLock({ $0.upstreamSubscriptions.elements }) {
            subscription.cancel()
        }
    }

    /// Attaches `subscriber` to `subject` (the publisher it subscribed to) through a new
    /// conduit; after a completion the subscriber receives `Subscriptions.empty` and the
    /// completion at once.
    @inlinable
    @inline(__always)
    func attach<S: Subscriber>(_ subscriber: S, to subject: AnyObject) where S.Input == Output, S.Failure == Failure {
        let attached = state.withLock { state -> Attachment<S> in
            if let completion = state.completion { return .completed(completion) }
            let conduit = SubjectConduit(
                downstream: subscriber, subject: subject, core: self, kind: kind, key: state.conduits.nextKey)
            state.conduits.append(SubjectConduitEntry(conduit))
            return .attached(conduit)
        }
        switch attached {
        case .attached(let conduit):
            conduit.start()
        case .completed(let completion):
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completion)
        }
    }

    /// What ``attach(_:)`` hands out of its lock.
    @usableFromInline
    enum Attachment<S: Subscriber> where S.Input == Output, S.Failure == Failure {
        case attached(SubjectConduit<S>)
        case completed(Subscribers.Completion<Failure>)
    }

    /// Offers `value` to every subscriber, unless completed; `CurrentValueSubject` first makes it
    /// the current value (`evenAfterCompletion` when assigned through `value`).
    @inlinable
    func send(_ value: Output, storing: Bool, evenAfterCompletion: Bool) {
        let conduits = state.withLock { state -> Snapshot? in
            guard state.completion == nil else {
                if storing && evenAfterCompletion { state.current = value }
                return nil
            }
            if storing { state.current = value }
            return state.conduits.elements
        }
        guard let conduits else { return }
        let thread = ThreadIdentity.current
        for conduit in conduits {
            conduit.offer(value, thread)
        }
    }

    /// Sends `completion` to every subscriber, once, and drops the conduits; the upstream
    /// subscriptions stay until the core goes away, or until they end (``forget(upstream:)``).
    @inlinable
    func send(completion: Subscribers.Completion<Failure>) {
        let conduits = state.withLock { state -> Snapshot? in
            guard state.completion == nil else { return nil }
            state.completion = completion
            return state.conduits.removeAll()
        }
        guard let conduits else { return }
        for conduit in conduits {
            conduit.finish(completion)
        }
    }

    /// Keeps `subscription` and asks it for unlimited values: a subject with a current value at
    /// once, the others once any subscriber has asked for values. Returns the key to forget it
    /// by.
    @inlinable
    @discardableResult
    func keep(upstream subscription: any Subscription) -> Int {
        let action = state.withLock { state -> KeepAction in
            let key = state.upstreamSubscriptions.append(subscription)
            return state.hasDownstreamDemand || kind.replaysCurrent ? .keepAndRequest(key: key) : .keep(key: key)
        }
        switch action {
        case .keep(let key):
            return key
        case .keepAndRequest(let key):
            subscription.request(.unlimited)
            return key
        }
    }

    /// What ``keep(upstream:)`` does once the lock is released.
    @usableFromInline
    enum KeepAction {
        /// Kept under `key`: it is asked for values once a subscriber asks.
        case keep(key: Int)
        /// Kept under `key`: ask it for unlimited values now.
        case keepAndRequest(key: Int)
    }

    /// Lets go of the upstream subscription kept under `key`, which has completed or been
    /// cancelled; it is released outside the lock.
    @inlinable
    func forget(upstream key: Int) {
        let removed = state.withLock { $0.upstreamSubscriptions.remove(key) }
        withExtendedLifetime(removed) {}
    }

    /// Called by a conduit, outside its lock, when its subscriber first asks for values: the
    /// first such call asks every upstream subscription for unlimited values (a subject with a
    /// current value asked at once).
    @inlinable
    func conduitReceivedDemand() {
        let subscriptions = state.withLock { state -> ContiguousArray<any Subscription> in
            guard !state.hasDownstreamDemand, !kind.replaysCurrent else { return [] }
            state.hasDownstreamDemand = true
            return state.upstreamSubscriptions.elements
        }
        for subscription in subscriptions {
            subscription.request(.unlimited)
        }
    }

    /// Called by the conduit attached under `key` when it is cancelled: O(log n) in the number
    /// of conduits, whatever the order of the cancels. The entry's closures are released outside
    /// the lock.
    @inlinable
    func remove(_ key: Int) {
        let removed = state.withLock { $0.conduits.remove(key) }
        withExtendedLifetime(removed) {}
    }
}

extension SubjectConduitEntry {
    /// What stands for a removed conduit in the core's list: it ignores what it is given.
    @inlinable
    static var removed: Self {
        Self(offer: { _, _ in }, finish: { _ in })
    }

    /// An entry that calls these closures.
    @inlinable
    init(offer: @escaping (Output, Int) -> Void, finish: @escaping (Subscribers.Completion<Failure>) -> Void) {
        self.offer = offer
        self.finish = finish
    }
}
