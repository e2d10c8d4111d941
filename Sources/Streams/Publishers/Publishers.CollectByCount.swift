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

/// The subscription of ``Publishers/CollectByCount``.
///
/// The buffer is touched only by upstream's calls, which never overlap; the lock guards the
/// status and the subscriber.
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

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var status = SubscriptionStatus.awaitingSubscription
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Box<Downstream>?

    @inlinable
    init(downstream: Downstream, count: Int) {
        self.downstream = Box(downstream)
        self.count = count
        buffer.reserveCapacity(count)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let accepted = lock.withLockUnchecked { () -> Bool in
            guard case .awaitingSubscription = status, downstream != nil else { return false }
            status = .subscribed(subscription)
            return true
        }
        guard accepted, let downstream = lock.withLockUnchecked({ downstream }) else {
            subscription.cancel()
            return
        }
        downstream.value.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Element) -> Subscribers.Demand {
        buffer.append(input)
        guard buffer.count == count, let downstream = lock.withLockUnchecked({ downstream }) else { return .none }
        let full = buffer
        buffer.removeAll(keepingCapacity: true)
        return downstream.value.receive(full) * count
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        let downstream = lock.withLockUnchecked { () -> Box<Downstream>? in
            guard case .subscribed = status else { return nil }
            status = .terminal
            defer { self.downstream = nil }
            return self.downstream
        }
        let rest = buffer
        buffer = []
        guard let downstream else { return }
        if case .finished = completion, !rest.isEmpty {
            _ = downstream.value.receive(rest)
        }
        downstream.value.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "API Violation: demand must not be zero")
        lock.withLockUnchecked { status }.request(demand * count)
    }

    @inlinable
    func cancel() {
        // Handed out of the lock so that what they hold is released outside it.
        let taken = lock.withLockUnchecked { () -> (SubscriptionStatus, Box<Downstream>?) in
            // As in Combine, a cancel before the upstream subscription is a no-op.
            if case .awaitingSubscription = status { return (status, nil) }
            defer {
                status = .terminal
                downstream = nil
            }
            return (status, downstream)
        }
        taken.0.cancel()
    }

    @usableFromInline
    var description: String { "CollectByCount" }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked {
            Mirror(
                self,
                children: [
                    "downstream": downstream?.value as Any, "upstreamSubscription": status.subscription as Any,
                    "buffer": buffer, "count": count,
                ])
        }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
