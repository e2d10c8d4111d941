import Streams

/// The subscription of `sample`, with its state in a ``SampleStateMachine``.
///
/// It subscribes to the upstream itself and to the trigger through a `SideSubscriber`, asking
/// both for all their values. The downstream is called outside the lock, by one side at a time.
@usableFromInline
final class SampleSubscription<Upstream: Publisher, Trigger: Publisher, Downstream: Subscriber>: Subscriber,
    Subscription, SideSubscriberParent, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    Sendable
where Upstream.Failure == Trigger.Failure, Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline
    typealias Input = Upstream.Output
    @usableFromInline
    typealias Failure = Upstream.Failure
    @usableFromInline
    typealias SideInput = Trigger.Output
    @usableFromInline
    typealias SideFailure = Trigger.Failure
    @usableFromInline
    typealias StateMachine = SampleStateMachine<Downstream>

    @usableFromInline
    let state: LockedState<StateMachine>

    @inlinable
    init(downstream: Downstream) {
        state = LockedState(StateMachine(downstream: downstream))
    }

    // MARK: The upstream

    @inlinable
    func receive(subscription: any Subscription) {
        state.withLock { $0.receiveUpstreamSubscription(subscription) }.apply(to: subscription)
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        state.withLock { $0.receiveUpstreamValue(input) }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        state.withLock { $0.receiveUpstreamCompletion(completion) }.perform()
    }

    // MARK: The trigger

    @inlinable
    func receiveSide(subscription: any Subscription) {
        state.withLock { $0.receiveTriggerSubscription(subscription) }.apply(to: subscription)
    }

    @inlinable
    func receiveSide(_ input: Trigger.Output) -> Subscribers.Demand {
        sample(finishing: false)
        return .none
    }

    @inlinable
    func receiveSide(completion: Subscribers.Completion<Trigger.Failure>) {
        switch completion {
        case .finished: sample(finishing: true)
        case .failure(let failure): state.withLock { $0.receiveTriggerFailure(failure) }.perform()
        }
    }

    @inlinable
    func sample(finishing: Bool) {
        switch state.withLock({ $0.receiveTrigger(finishing: finishing) }) {
        case .deliver(let downstream, let value, let subscriptions):
            for subscription in subscriptions { subscription.cancel() }
            _ = state.deliver(value, to: downstream)
        case .end(let action):
            action.perform()
        }
    }

    // MARK: The downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        _ = state.withLock { $0.downstream.request(demand) }
    }

    @inlinable
    func cancel() {
        // What the machine held is released here, outside the lock.
        state.withLock { $0.cancel() }.perform()
    }

    @usableFromInline
    var description: String { "Sample" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
