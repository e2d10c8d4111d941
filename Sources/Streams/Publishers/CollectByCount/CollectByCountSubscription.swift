/// The subscription of ``Publishers/CollectByCount``; its phases are
/// ``CollectByCountStateMachine``'s. A completion that arrives before the subscription is not
/// forwarded (Combine forwards it to a downstream that has no subscription yet).
///
/// The buffer and `receiving` are touched only by upstream's calls, which never overlap, so a
/// value takes the lock only when it fills the buffer.
@usableFromInline
// Unchecked: `buffer` and `receiving` are reached without the lock, only by upstream's calls.
final class CollectByCountSubscription<Element, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == [Element] {
    @usableFromInline
    let count: Int
    /// Touched only by upstream's calls.
    @usableFromInline
    @exclusivity(unchecked)
    var buffer: [Element] = []
    /// Whether values are collected: from the accepted subscription to the completion. Touched
    /// only by upstream's calls.
    @usableFromInline
    @exclusivity(unchecked)
    var receiving = false

    @usableFromInline
    let state: LockedState<CollectByCountStateMachine<Downstream>>

    @inlinable
    init(downstream: Downstream, count: Int) {
        state = LockedState(CollectByCountStateMachine(downstream: downstream))
        self.count = count
        buffer.reserveCapacity(count)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard let downstream = state.withLock({ $0.subscription(subscription) }) else {
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
        guard let downstream = state.withLock({ $0.value() }) else { return .none }
        return downstream.receive(full) * count
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        let action = state.withLock { $0.completion() }
        receiving = false
        let rest = buffer
        buffer = []
        guard case .forward(let downstream) = action else { return }
        if case .finished = completion, !rest.isEmpty {
            _ = downstream.receive(rest)
        }
        downstream.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "API Violation: demand must not be zero")
        state.withLock { $0.request() }?.request(demand * count)
    }

    @inlinable
    func cancel() {
        guard case .cancel(let upstream, _) = state.withLock({ $0.cancel() }) else { return }
        upstream.cancel()
    }

    @usableFromInline
    var description: String { "CollectByCount" }

    @usableFromInline
    var customMirror: Mirror {
        state.withLock { state in
            let upstream: (any Subscription)? =
                if case .subscribed(let upstream) = state.phase { upstream } else { nil }
            return Mirror(
                self,
                children: [
                    "downstream": state.downstream as Any, "upstreamSubscription": upstream as Any,
                    "buffer": buffer, "count": count,
                ])
        }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
