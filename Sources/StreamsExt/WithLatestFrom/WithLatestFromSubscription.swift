import Streams

/// The subscription of `withLatestFrom`, with its state in a ``WithLatestFromStateMachine``.
///
/// It subscribes to the upstream itself and to the other publisher through a
/// `SideSubscriber`. The upstream is subscribed from inside the other's first value (outside
/// the lock), and the result selector and the downstream are called outside the lock.
@usableFromInline
// Unchecked: it holds the upstream and `resultSelector`, which need not be Sendable.
final class WithLatestFromSubscription<Upstream: Publisher, Other: Publisher, Downstream: Subscriber>: Subscriber,
    Subscription, SideSubscriberParent, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable
where Upstream.Failure == Other.Failure, Downstream.Failure == Upstream.Failure {
    @usableFromInline
    typealias Input = Upstream.Output
    @usableFromInline
    typealias Failure = Upstream.Failure
    @usableFromInline
    typealias SideInput = Other.Output
    @usableFromInline
    typealias SideFailure = Other.Failure

    @usableFromInline
    let upstream: Upstream
    @usableFromInline
    let resultSelector: (Upstream.Output, Other.Output) -> Downstream.Input
    @usableFromInline
    let state: LockedState<WithLatestFromStateMachine<Downstream, Other.Output>>

    @inlinable
    init(
        downstream: Downstream, upstream: Upstream,
        resultSelector: @escaping (Upstream.Output, Other.Output) -> Downstream.Input
    ) {
        self.upstream = upstream
        self.resultSelector = resultSelector
        state = LockedState(WithLatestFromStateMachine(downstream: downstream))
    }

    // MARK: The other publisher

    @inlinable
    func receiveSide(subscription: any Subscription) {
        switch state.withLock({ $0.receiveOtherSubscription(subscription) }) {
        case .requestUnlimited(let subscription):
            subscription.request(.unlimited)
        case .cancel(let subscription):
            subscription.cancel()
        }
    }

    @inlinable
    func receiveSide(_ input: Other.Output) -> Subscribers.Demand {
        if case .subscribeUpstream = state.withLock({ $0.receiveOtherValue(input) }) {
            upstream.receive(subscriber: self)
        }
        return .none
    }

    @inlinable
    func receiveSide(completion: Subscribers.Completion<Other.Failure>) {
        let failed: Bool
        if case .failure = completion { failed = true } else { failed = false }
        perform(state.withLock { $0.receiveOtherCompletion(failed: failed) }, completion)
    }

    // MARK: The upstream

    @inlinable
    func receive(subscription: any Subscription) {
        switch state.withLock({ $0.receiveUpstreamSubscription(subscription) }) {
        case .request(let upstream, let demand):
            if demand > 0 { upstream.request(demand) }
        case .cancel:
            subscription.cancel()
        }
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        guard case .deliver(let downstream, let latest) = state.withLock({ $0.receiveUpstreamValue() }) else { return .none }
        return downstream.value.receive(resultSelector(input, latest))
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
        perform(state.withLock { $0.receiveUpstreamCompletion() }, completion)
    }

    @inlinable
    func perform(
        _ action: WithLatestFromStateMachine<Downstream, Other.Output>.EndAction,
        _ completion: Subscribers.Completion<Upstream.Failure>
    ) {
        guard case .complete(let downstream, let cancelling) = action else { return }
        cancelling?.cancel()
        downstream.value.receive(completion: completion)
    }

    // MARK: The downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard case .forward(let upstream) = state.withLock({ $0.request(demand) }) else { return }
        upstream.request(demand)
    }

    @inlinable
    func cancel() {
        // What the machine held is released here, outside the lock.
        guard case .cancel(let upstream, let other, _) = state.withLock({ $0.cancel() }) else { return }
        upstream?.cancel()
        other?.cancel()
    }

    @usableFromInline
    var description: String { "WithLatestFrom" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
