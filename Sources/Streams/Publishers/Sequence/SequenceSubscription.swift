import Synchronization

/// The subscription of ``Publishers/Sequence``. As in Combine it describes itself as its
/// sequence while active, and `request(.none)` is accepted (also from inside `receive(_:)`).
///
/// The per-element path takes no lock. Whoever holds `owned` (set under the lock) is the only
/// code that touches `downstream`, `iterator` and `next`: the thread that is emitting, or, once
/// nothing is emitting, the one that cancels or finishes. Requests made while emitting (from
/// `receive(_:)` or another thread) only add to `pending`, which the emitter picks up; a cancel
/// while emitting raises `cancelled`, which the emitter checks before every element.
///
/// Unchecked `Sendable`: the fields the owner touches are not guarded by the lock; `owned`
/// makes their accesses exclusive.
@usableFromInline
final class SequenceSubscription<Downstream: Subscriber, Iterator: IteratorProtocol>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Iterator.Element {
    @usableFromInline
    let state: LockedState<SequenceSubscriptionState>
    @usableFromInline
    let cancelled = Atomic<Bool>(false)
    /// Sent after the last element: `.finished`, or a `Record`'s recorded completion.
    @usableFromInline
    let completion: Subscribers.Completion<Downstream.Failure>
    /// `Record`'s subscription, which reflects itself differently.
    @usableFromInline
    let isRecord: Bool

    // Touched only by the owner (see above), without the lock: the per-element path.
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    @usableFromInline
    @exclusivity(unchecked)
    var iterator: Iterator?
    @usableFromInline
    @exclusivity(unchecked)
    var next: Iterator.Element?

    @inlinable
    init(
        downstream: Downstream, sequence: Any, iterator: Iterator, next: Iterator.Element,
        completion: Subscribers.Completion<Downstream.Failure>, isRecord: Bool = false
    ) {
        state = LockedState(SequenceSubscriptionState(sequence: sequence))
        self.downstream = downstream
        self.completion = completion
        self.isRecord = isRecord
        self.iterator = iterator
        self.next = next
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // As in Combine, `.none` is accepted and changes nothing.
        guard demand > 0 else { return }
        let claimed = state.withLock { state -> Subscribers.Demand? in
            guard !state.terminated else { return nil }
            guard !state.owned else {
                state.pending += demand
                return nil
            }
            state.owned = true
            return demand
        }
        if let demand = claimed {
            emit(demand)
        }
    }

    /// Sends elements while there is demand; runs only while holding `owned`.
    @inlinable
    func emit(_ initialDemand: Subscribers.Demand) {
        // Bound once: copying a downstream chain of structs retains everything it holds.
        guard let downstream else { return }
        var demand = initialDemand
        while true {
            while demand > 0 {
                if cancelled.load(ordering: .relaxed) {
                    release()
                    return
                }
                guard let value = next else { return }
                next = iterator!.next()
                demand -= 1
                let additional = downstream.receive(value)
                if next == nil {
                    finish()
                    return
                }
                demand += additional
            }
            // nil: nothing more was asked for; .none: cancelled meanwhile; otherwise: go on.
            let resume = state.withLock { state -> Subscribers.Demand? in
                if state.terminated { return Subscribers.Demand.none }
                if state.pending == .none {
                    state.owned = false
                    return nil
                }
                defer { state.pending = .none }
                return state.pending
            }
            guard let resume else { return }
            guard resume > 0 else {
                release()
                return
            }
            demand = resume
        }
    }

    /// Sends `.finished` unless cancelled meanwhile; runs only while holding `owned`.
    @inlinable
    func finish() {
        let alreadyTerminated = state.withLock { state in
            defer { state.terminated = true }
            return state.terminated
        }
        let downstream = release()
        if !alreadyTerminated {
            downstream?.receive(completion: completion)
        }
    }

    /// Drops the downstream and the iterator; runs only while holding `owned`.
    @inlinable
    @discardableResult
    func release() -> Downstream? {
        iterator = nil
        next = nil
        let downstream = self.downstream
        self.downstream = nil
        // The sequence is handed out of the lock so that it is released outside it.
        let sequence = state.withLock { state in
            defer { state.sequence = nil }
            return state.sequence
        }
        withExtendedLifetime(sequence) {}
        return downstream
    }

    @inlinable
    func cancel() {
        // The sequence is handed out of the lock so that it is released outside it.
        // The action (with the sequence) dies at the end of the `guard`, before the release.
        guard
            case .release = state.withLock({ state -> SequenceSubscriptionState.CancelAction in
                let action = state.cancel()
                if case .none = action { return action }
                cancelled.store(true, ordering: .relaxed)
                return action
            })
        else { return }
        release()
    }

    /// As in Combine: the sequence while active; once exhausted or cancelled `Sequence`
    /// (`Cancelled Events` for a `Record`).
    @usableFromInline
    var description: String {
        state.withLock { $0.sequence }.map { String(describing: $0) }
            ?? (isRecord ? "Cancelled Events" : "Sequence")
    }

    /// As in Combine: the sequence, an empty array once exhausted or cancelled; a `Record`'s
    /// shows its completion too.
    @usableFromInline
    var customMirror: Mirror {
        let sequence: Any = state.withLock { $0.sequence } ?? [Iterator.Element]()
        guard isRecord else { return Mirror(self, children: ["sequence": sequence]) }
        return Mirror(self, children: ["sequence": sequence, "completion": completion])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
