/// The part of a ``SubjectCore`` that does not depend on the subject's output and failure: the
/// conduits to its subscribers, the upstream subscriptions it was given, and whether any
/// subscriber has asked for values, under the lock that also guards the core's typed fields.
///
/// A conduit's `cancel()` and `request(_:)` are called through `any Subscription`, in
/// unspecialised code. What they ask of the subject (remove this conduit, a subscriber asked for
/// values) is done here, in code that needs no type metadata; on a generic core every use of its
/// lock and its lists looked their types up, half the instructions of a subscribe-and-cancel
/// cycle (Docs/Performance.md).
///
/// The upstream subscriptions are kept, also after the completion (as in Combine), and
/// cancelled when the core goes away: each live conduit keeps its subject, and so the core,
/// alive. The exception is a subscription that tells the subject it has ended (see
/// ``UpstreamKeepingSubject``), such as the one `subscribe(_:)` makes for a subject, or each
/// connection of a multicast: it is let go at once, so that reconnecting does not pile them up.
///
/// Conduits and upstream subscriptions are kept in ``KeyedList``s: in the order they came, and
/// removed by key in O(log n) with nothing shifted.
///
/// Unchecked `Sendable`: its state, and the core's typed fields, are reached only under `state`'s
/// lock.
@usableFromInline
class SubjectRoster: @unchecked Sendable {
    /// What the lock guards, besides the core's typed fields.
    @usableFromInline
    struct State {
        @usableFromInline
        var conduits = KeyedList<SubjectConduitEntry>(placeholder: .removed)
        @usableFromInline
        var upstreamSubscriptions = KeyedList<any Subscription>(placeholder: Subscriptions.empty)
        @usableFromInline
        var hasDownstreamDemand = false

        @inlinable
        init() {}
    }

    @usableFromInline
    let kind: SubjectKind
    @usableFromInline
    let state = LockedState(State())

    @inlinable
    init(kind: SubjectKind) {
        self.kind = kind
    }

    deinit {
        for subscription in state.withLock({ $0.upstreamSubscriptions.elements }) {
            subscription.cancel()
        }
    }

    /// Keeps `subscription` and asks it for unlimited values: a subject with a current value at
    /// once, the others once any subscriber has asked for values. Returns the key to forget it
    /// by.
    @inlinable
    @discardableResult
    package final func keep(upstream subscription: any Subscription) -> Int {
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
    package final func forget(upstream key: Int) {
        let removed = state.withLock { $0.upstreamSubscriptions.remove(key) }
        withExtendedLifetime(removed) {}
    }

    /// Called by a conduit, outside its lock, when its subscriber first asks for values: the
    /// first such call asks every upstream subscription for unlimited values (a subject with a
    /// current value asked at once).
    @inlinable
    final func conduitReceivedDemand() {
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
    final func remove(_ key: Int) {
        let removed = state.withLock { $0.conduits.remove(key) }
        withExtendedLifetime(removed) {}
    }
}
