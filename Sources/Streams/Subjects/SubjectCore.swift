/// What ``PassthroughSubject`` and ``CurrentValueSubject`` share: the conduits to their
/// subscribers, the completion, the upstream subscriptions they were given and, for
/// `CurrentValueSubject`, the current value, all under one lock.
///
/// The upstream subscriptions are kept, also after the completion (as in Combine), and
/// cancelled when the core goes away: each live conduit keeps its subject, and so the core,
/// alive.
@usableFromInline
final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
    @usableFromInline
    typealias Conduits = ContiguousArray<SubjectConduitEntry<Output, Failure>>

    @usableFromInline
    let lock = Lock()
    @usableFromInline
    let kind: SubjectKind
    // Guarded by `lock`.
    /// `CurrentValueSubject`'s value; always nil for `PassthroughSubject`.
    @usableFromInline
    @exclusivity(unchecked)
    var current: Output?
    @usableFromInline
    @exclusivity(unchecked)
    var conduits: Conduits = []
    @usableFromInline
    @exclusivity(unchecked)
    var completion: Subscribers.Completion<Failure>?
    @usableFromInline
    @exclusivity(unchecked)
    var upstreamSubscriptions: [any Subscription] = []
    @usableFromInline
    @exclusivity(unchecked)
    var hasDownstreamDemand = false

    @inlinable
    init(current: Output?, kind: SubjectKind) {
        self.current = current
        self.kind = kind
    }

    /// The current value of a subject that has one.
    @inlinable
    var currentValue: Output {
        lock.withLockUnchecked { current! }
    }

    deinit {
        for subscription in upstreamSubscriptions {
            subscription.cancel()
        }
    }

    /// Attaches `subscriber` to `subject` (the publisher it subscribed to) through a new
    /// conduit; after a completion the subscriber receives `Subscriptions.empty` and the
    /// completion at once.
    @inlinable
    @inline(__always)
    func attach<S: Subscriber>(_ subscriber: S, to subject: AnyObject) where S.Input == Output, S.Failure == Failure {
        let attached = lock.withLockUnchecked { () -> Attachment<S> in
            if let completion { return .completed(completion) }
            let conduit = SubjectConduit(downstream: subscriber, subject: subject, core: self, kind: kind)
            conduits.append(SubjectConduitEntry(conduit))
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
        let conduits = lock.withLockUnchecked { () -> Conduits? in
            guard completion == nil else {
                if storing && evenAfterCompletion { current = value }
                return nil
            }
            if storing { current = value }
            return self.conduits
        }
        guard let conduits else { return }
        let thread = ThreadIdentity.current
        for conduit in conduits {
            conduit.offer(value, thread)
        }
    }

    /// Sends `completion` to every subscriber, once, and drops the conduits; the upstream
    /// subscriptions stay until the core goes away.
    @inlinable
    func send(completion: Subscribers.Completion<Failure>) {
        let conduits = lock.withLockUnchecked { () -> Conduits? in
            guard self.completion == nil else { return nil }
            self.completion = completion
            defer { self.conduits = [] }
            return self.conduits
        }
        guard let conduits else { return }
        for conduit in conduits {
            conduit.finish(completion)
        }
    }

    /// Keeps `subscription` and asks it for unlimited values: a subject with a current value at
    /// once, the others once any subscriber has asked for values.
    @inlinable
    func send(subscription: any Subscription) {
        let request = lock.withLockUnchecked { () -> Bool in
            upstreamSubscriptions.append(subscription)
            return hasDownstreamDemand || kind.replaysCurrent
        }
        if request {
            subscription.request(.unlimited)
        }
    }

    /// Called by a conduit, outside its lock, when its subscriber first asks for values: the
    /// first such call asks every upstream subscription for unlimited values (a subject with a
    /// current value asked at once).
    @inlinable
    func conduitReceivedDemand() {
        let subscriptions = lock.withLockUnchecked { () -> [any Subscription] in
            guard !hasDownstreamDemand, !kind.replaysCurrent else { return [] }
            hasDownstreamDemand = true
            return upstreamSubscriptions
        }
        for subscription in subscriptions {
            subscription.request(.unlimited)
        }
    }

    /// Called by a conduit when it is cancelled. The entry's closures are released outside the
    /// lock. (`removeAll(where:)` ran the standard library's unspecialised implementation here:
    /// thousands of instructions and an allocation per cancel.)
    @inlinable
    func remove(_ conduit: AnyObject) {
        let removed = lock.withLockUnchecked { () -> SubjectConduitEntry<Output, Failure>? in
            guard let index = conduits.firstIndex(where: { $0.conduit === conduit }) else { return nil }
            return conduits.remove(at: index)
        }
        withExtendedLifetime(removed) {}
    }
}
