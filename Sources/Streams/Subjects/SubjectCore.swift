/// What ``PassthroughSubject`` and ``CurrentValueSubject`` share: the conduits to their
/// subscribers, the completion, the upstream subscriptions they were given and, for
/// `CurrentValueSubject`, the current value, all under one lock.
///
/// What does not depend on `Output` and `Failure` is in the ``SubjectRoster`` this core is, so
/// that a conduit's unspecialised `cancel()` and `request(_:)` reach it without type metadata;
/// the current value and the completion are fields of the core, guarded by the roster's lock.
///
/// A value goes to the conduits in the order they subscribed, walking a snapshot of the list's
/// elements, where a removed conduit is a placeholder that ignores it.
@usableFromInline
final class SubjectCore<Output, Failure: Error>: SubjectRoster, @unchecked Sendable {
    /// The conduits a value or the completion goes to.
    @usableFromInline
    typealias Snapshot = ContiguousArray<SubjectConduitEntry>

    /// `CurrentValueSubject`'s value; always nil for `PassthroughSubject`. Guarded by `state`'s
    /// lock.
    @usableFromInline
    @exclusivity(unchecked)
    var current: Output?
    /// Guarded by `state`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var completion: Subscribers.Completion<Failure>?

    @inlinable
    init(current: Output?, kind: SubjectKind) {
        self.current = current
        super.init(kind: kind)
    }

    /// The current value of a subject that has one.
    @inlinable
    var currentValue: Output {
        state.withLock { _ in current! }
    }

    /// Attaches `subscriber` to `subject` (the publisher it subscribed to) through a new
    /// conduit; after a completion the subscriber receives `Subscriptions.empty` and the
    /// completion at once.
    @inlinable
    @inline(__always)
    func attach<S: Subscriber>(_ subscriber: S, to subject: AnyObject) where S.Input == Output, S.Failure == Failure {
        let attached = state.withLock { state -> Attachment<S> in
            if let completion { return .completed(completion) }
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
            guard completion == nil else {
                if storing && evenAfterCompletion { current = value }
                return nil
            }
            if storing { current = value }
            return state.conduits.elements
        }
        guard let conduits else { return }
        let thread = ThreadIdentity.current
        // By index: `for conduit in conduits` inside the closure copied each entry, a retain and
        // a release of both of its closures per subscriber per value.
        withUnsafePointer(to: value) { value in
            for index in conduits.indices {
                conduits[index].offer(UnsafeRawPointer(value), thread)
            }
        }
    }

    /// Sends `completion` to every subscriber, once, and drops the conduits; the upstream
    /// subscriptions stay until the core goes away, or until they end (``forget(upstream:)``).
    @inlinable
    func send(completion: Subscribers.Completion<Failure>) {
        let conduits = state.withLock { state -> Snapshot? in
            guard self.completion == nil else { return nil }
            self.completion = completion
            return state.conduits.removeAll()
        }
        guard let conduits else { return }
        withUnsafePointer(to: completion) { completion in
            for index in conduits.indices {
                conduits[index].finish(UnsafeRawPointer(completion))
            }
        }
    }
}
