import Streams

/// The subscription of `delaySubscription`, with its state in a
/// ``DelaySubscriptionStateMachine``. It is also the subscriber the upstream sees, once the
/// scheduled action has subscribed it. The scheduled action holds it until it has run or been
/// cancelled.
@usableFromInline
final class DelaySubscriptionSubscription<Downstream: Subscriber, Upstream: Publisher>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline
    typealias StateMachine = DelaySubscriptionStateMachine<Downstream, Upstream>

    @usableFromInline
    let state: LockedState<StateMachine>

    @inlinable
    init(downstream: Downstream, upstream: Upstream) {
        state = LockedState(StateMachine(downstream: downstream, upstream: upstream))
    }

    /// The scheduled action's cancellable: kept, or cancelled at once if the action is no
    /// longer needed.
    @inlinable
    func armed(_ timer: any Cancellable) {
        if case .cancel = state.withLock({ $0.armed(timer) }) { timer.cancel() }
    }

    /// The wait is over: subscribe to the upstream.
    @inlinable
    func fire() {
        switch state.withLock({ $0.fire() }) {
        case .subscribe(let upstream, let timer):
            timer?.cancel()
            upstream.receive(subscriber: self)
        case .cancel(let timer):
            timer?.cancel()
        }
    }

    // MARK: Upstream

    @inlinable
    func receive(subscription: any Subscription) {
        switch state.withLock({ $0.receiveSubscription(subscription) }) {
        case .request(let upstream, let demand):
            if demand > 0 { upstream.request(demand) }
        case .cancel:
            subscription.cancel()
        }
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard let downstream = state.withLock({ $0.receiveValue() }) else { return .none }
        return downstream.value.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        state.withLock { $0.receiveCompletion() }?.value.receive(completion: completion)
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        if case .forward(let upstream) = state.withLock({ $0.request(demand) }) { upstream.request(demand) }
    }

    @inlinable
    func cancel() {
        // What the machine held is released here, outside the lock.
        guard case .cancel(let timer, let upstream, _) = state.withLock({ $0.cancel() }) else { return }
        timer?.cancel()
        upstream?.cancel()
    }

    @usableFromInline
    var description: String { "DelaySubscription" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
