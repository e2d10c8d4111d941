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
                    subscription: SequenceSubscription(downstream: subscriber, iterator: iterator, next: first))
            } else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
            }
        }
    }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}
extension Publishers.Sequence: Sendable where Elements: Sendable {}

/// The subscription of ``Publishers/Sequence``.
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
    init(downstream: Downstream, iterator: Iterator, next: Iterator.Element) {
        self.downstream = downstream
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
            downstream?.receive(completion: .finished)
        }
    }

    /// Drops the downstream and the iterator; runs only while holding `owned`.
    @inlinable
    @discardableResult
    func release() -> Downstream? {
        iterator = nil
        next = nil
        return lock.withLockUnchecked {
            defer { downstream = nil }
            return downstream
        }
    }

    @inlinable
    func cancel() {
        let mustRelease = lock.withLockUnchecked { () -> Bool in
            guard !terminated else { return false }
            terminated = true
            cancelled.store(true, ordering: .relaxed)
            guard !owned else { return false }
            owned = true
            return true
        }
        if mustRelease {
            release()
        }
    }

    @usableFromInline
    var description: String { "Sequence" }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked { Mirror(self, children: ["downstream": downstream as Any]) }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
