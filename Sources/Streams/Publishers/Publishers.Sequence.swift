import Synchronization

extension Sequence {
    /// A publisher that sends this sequence's elements, as many as are asked for, then finishes.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher.sink { print($0) }   // 1, 2, 3
    /// ```
    @inlinable
    public var publisher: Publishers.Sequence<Self, Never> {
        Publishers.Sequence(sequence: self)
    }
}

extension Publishers {
    /// A publisher that sends the elements of a sequence, honouring demand, then finishes.
    ///
    /// An empty sequence sends ``Subscriptions/empty`` and `.finished` at once. The completion
    /// follows the last element without waiting for more demand.
    ///
    /// ```swift
    /// let numbers = Publishers.Sequence<[Int], Never>(sequence: [1, 2, 3])
    /// ```
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        /// The sequence's elements.
        public typealias Output = Elements.Element

        /// The sequence whose elements are sent.
        public let sequence: Elements

        /// Makes a publisher of `sequence`'s elements.
        ///
        /// ```swift
        /// let letters = Publishers.Sequence<String, Never>(sequence: "abc")
        /// ```
        @inlinable
        public init(sequence: Elements) {
            self.sequence = sequence
        }

        /// Sends the subscription; elements follow the subscriber's requests.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            var iterator = sequence.makeIterator()
            if let first = iterator.next() {
                subscriber.receive(
                    subscription: SequenceSubscription(
                        downstream: subscriber, sequence: sequence, iterator: iterator, next: first,
                        completion: .finished))
            } else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
            }
        }
    }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}
extension Publishers.Sequence: Sendable where Elements: Sendable {}

/// The subscription of ``Publishers/Sequence``. As in Combine it describes itself as its
/// sequence while active, and `request(.none)` is accepted (also from inside `receive(_:)`).
///
/// The per-element path takes no lock. Whoever holds `owned` (set under the lock) is the only
/// code that touches `iterator`, `next` and reads `downstream`: the thread that is emitting, or,
/// once nothing is emitting, the one that cancels or finishes. Requests made while emitting
/// (from `receive(_:)` or another thread) only add to `pending`, which the emitter picks up;
/// a cancel while emitting raises `cancelled`, which the emitter checks before every element.
@usableFromInline
final class SequenceSubscription<Downstream: Subscriber, Iterator: IteratorProtocol>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Iterator.Element {
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    let cancelled = Atomic<Bool>(false)
    /// Sent after the last element: `.finished`, or a `Record`'s recorded completion.
    @usableFromInline
    let completion: Subscribers.Completion<Downstream.Failure>
    /// `Record`'s subscription, which reflects itself differently.
    @usableFromInline
    let isRecord: Bool

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var pending = Subscribers.Demand.none
    @usableFromInline
    @exclusivity(unchecked)
    var owned = false
    @usableFromInline
    @exclusivity(unchecked)
    var terminated = false
    /// The sequence, for the description and mirror; nil once exhausted or cancelled.
    @usableFromInline
    @exclusivity(unchecked)
    var sequence: Any?

    // Touched only by the owner; `downstream` is written under `lock` too, for `customMirror`.
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
        self.downstream = downstream
        self.sequence = sequence
        self.completion = completion
        self.isRecord = isRecord
        self.iterator = iterator
        self.next = next
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // As in Combine, `.none` is accepted and changes nothing.
        guard demand > 0 else { return }
        let claimed = lock.withLockUnchecked { () -> Subscribers.Demand? in
            guard !terminated else { return nil }
            guard !owned else {
                pending += demand
                return nil
            }
            owned = true
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
            let resume = lock.withLockUnchecked { () -> Subscribers.Demand? in
                if terminated { return Subscribers.Demand.none }
                if pending == .none {
                    owned = false
                    return nil
                }
                defer { pending = .none }
                return pending
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
        let alreadyTerminated = lock.withLockUnchecked { () -> Bool in
            defer { terminated = true }
            return terminated
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
        let (downstream, _) = lock.withLockUnchecked {
            defer {
                self.downstream = nil
                sequence = nil
            }
            return (self.downstream, sequence)
        }
        return downstream
    }

    @inlinable
    func cancel() {
        // The sequence is handed out of the lock so that it is released outside it.
        let (mustRelease, _) = lock.withLockUnchecked { () -> (Bool, Any?) in
            guard !terminated else { return (false, nil) }
            terminated = true
            cancelled.store(true, ordering: .relaxed)
            defer { sequence = nil }
            guard !owned else { return (false, sequence) }
            owned = true
            return (true, sequence)
        }
        if mustRelease {
            release()
        }
    }

    /// As in Combine: the sequence while active; once exhausted or cancelled `Sequence`
    /// (`Cancelled Events` for a `Record`).
    @usableFromInline
    var description: String {
        lock.withLockUnchecked { sequence }.map { String(describing: $0) }
            ?? (isRecord ? "Cancelled Events" : "Sequence")
    }

    /// As in Combine: the sequence, an empty array once exhausted or cancelled; a `Record`'s
    /// shows its completion too.
    @usableFromInline
    var customMirror: Mirror {
        let sequence: Any = lock.withLockUnchecked { self.sequence } ?? [Iterator.Element]()
        guard isRecord else { return Mirror(self, children: ["sequence": sequence]) }
        return Mirror(self, children: ["sequence": sequence, "completion": completion])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
