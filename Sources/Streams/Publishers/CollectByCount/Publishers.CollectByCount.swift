extension Publisher {
    /// Collects values into arrays of `count` and sends each array as it fills; when upstream
    /// finishes, sends what is left (a shorter array) before finishing.
    ///
    /// A failure is passed on at once and the values collected so far are discarded. Each array
    /// the downstream asks for is asked of upstream as `count` values. `count` must be at least 1.
    ///
    /// ```swift
    /// let pages = [1, 2, 3, 4, 5].publisher.collect(2)   // [1, 2], [3, 4], [5]
    /// ```
    @inlinable
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }
}

extension Publishers {
    /// A publisher that sends its upstream's values in arrays of a given size.
    ///
    /// ```swift
    /// let pages = Publishers.CollectByCount(upstream: rows, count: 50)
    /// ```
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        /// Up to `count` upstream values, in order.
        public typealias Output = [Upstream.Output]
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are collected.
        public let upstream: Upstream

        /// The size of each array (the last may be shorter).
        public let count: Int

        /// Makes a publisher of `upstream`'s values in arrays of `count`. `count` must be at
        /// least 1.
        ///
        /// ```swift
        /// let pages = Publishers.CollectByCount(upstream: rows, count: 50)
        /// ```
        @inlinable
        public init(upstream: Upstream, count: Int) {
            precondition(count > 0, "collect(_:) requires a count of at least 1")
            self.upstream = upstream
            self.count = count
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: CollectByCountSubscription(downstream: subscriber, count: count))
        }
    }
}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}

/// The subscription of ``Publishers/CollectByCount``; its phases are
/// ``CollectByCountStateMachine``'s. A completion that arrives before the subscription is not
/// forwarded (Combine forwards it to a downstream that has no subscription yet).
///
/// The buffer and `receiving` are touched only by upstream's calls, which never overlap, so a
/// value takes the lock only when it fills the buffer.
@usableFromInline
final class CollectByCountSubscription<Element, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == [Element] {
    @usableFromInline
    let count: Int
    @usableFromInline
    let lock = Lock()
    /// Touched only by upstream's calls.
    @usableFromInline
    @exclusivity(unchecked)
    var buffer: [Element] = []
    /// Whether values are collected: from the accepted subscription to the completion. Touched
    /// only by upstream's calls.
    @usableFromInline
    @exclusivity(unchecked)
    var receiving = false

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var machine: CollectByCountStateMachine<Downstream>

    @inlinable
    init(downstream: Downstream, count: Int) {
        machine = CollectByCountStateMachine(downstream: downstream)
        self.count = count
        buffer.reserveCapacity(count)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard let downstream = lock.withLockUnchecked({ machine.subscription(subscription) }) else {
            subscription.cancel()
            return
        }
        receiving = true
        downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Element) -> Subscribers.Demand {
        guard receiving else { return .none }
        buffer.append(input)
        guard buffer.count == count else { return .none }
        let full = buffer
        buffer.removeAll(keepingCapacity: true)
        guard let downstream = lock.withLockUnchecked({ machine.value() }) else { return .none }
        return downstream.receive(full) * count
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        let (downstream, _) = lock.withLockUnchecked { machine.completion() }
        receiving = false
        let rest = buffer
        buffer = []
        guard let downstream else { return }
        if case .finished = completion, !rest.isEmpty {
            _ = downstream.receive(rest)
        }
        downstream.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "API Violation: demand must not be zero")
        lock.withLockUnchecked { machine.request() }?.request(demand * count)
    }

    @inlinable
    func cancel() {
        let (upstream, _) = lock.withLockUnchecked { machine.cancel() }
        upstream?.cancel()
    }

    @usableFromInline
    var description: String { "CollectByCount" }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked {
            let upstream: (any Subscription)? =
                if case .subscribed(let upstream) = machine.phase { upstream } else { nil }
            return Mirror(
                self,
                children: [
                    "downstream": machine.downstream as Any, "upstreamSubscription": upstream as Any,
                    "buffer": buffer, "count": count,
                ])
        }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
