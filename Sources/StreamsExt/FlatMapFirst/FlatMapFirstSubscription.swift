import Streams

/// The subscription of `flatMapFirst`, with its state in a ``FlatMapFirstStateMachine``.
///
/// It subscribes to the upstream through a `SideSubscriber` and to each inner publisher
/// through a `NumberedSideSubscriber`, numbered so that a late event of an ended one is
/// recognised. The transform, the inner publishers and the downstream are called
/// outside the lock; the downstream is called by one inner publisher at a time, and a failure
/// decided while a value is on its way waits for it to return.
@usableFromInline
// Unchecked: it holds `transform`, a closure that is not Sendable.
final class FlatMapFirstSubscription<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: Subscription,
    SideSubscriberParent, NumberedSideSubscriberParent, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, @unchecked Sendable
where
    NewPublisher.Output == Downstream.Input, NewPublisher.Failure == Upstream.Failure,
    Upstream.Failure == Downstream.Failure
{
    @usableFromInline
    typealias Failure = Upstream.Failure
    @usableFromInline
    typealias SideInput = Upstream.Output
    @usableFromInline
    typealias SideFailure = Upstream.Failure
    @usableFromInline
    typealias NumberedInput = NewPublisher.Output
    @usableFromInline
    typealias NumberedFailure = NewPublisher.Failure
    @usableFromInline
    typealias StateMachine = FlatMapFirstStateMachine<Downstream>

    @usableFromInline
    let transform: (Upstream.Output) -> NewPublisher
    @usableFromInline
    let state: LockedState<StateMachine>

    @inlinable
    init(downstream: Downstream, transform: @escaping (Upstream.Output) -> NewPublisher) {
        self.transform = transform
        state = LockedState(StateMachine(downstream: downstream))
    }

    // MARK: Upstream

    @inlinable
    func receiveSide(subscription: any Subscription) {
        state.withLock { $0.receiveUpstreamSubscription(subscription) }.apply(to: subscription)
    }

    @inlinable
    func receiveSide(_ input: Upstream.Output) -> Subscribers.Demand {
        guard case .subscribeInner(let number) = state.withLock({ $0.receiveUpstreamValue() }) else { return .none }
        transform(input).receive(subscriber: NumberedSideSubscriber(parent: self, number: number))
        return .none
    }

    @inlinable
    func receiveSide(completion: Subscribers.Completion<Failure>) {
        state.withLock { $0.receiveUpstreamCompletion(completion) }.perform()
    }

    // MARK: Inner

    @inlinable
    func receiveSide(subscription: any Subscription, number: Int) {
        state.withLock { $0.receiveInnerSubscription(subscription, number: number) }.apply(to: subscription)
    }

    @inlinable
    func receiveSide(_ input: NewPublisher.Output, number: Int) -> Subscribers.Demand {
        guard let downstream = state.withLock({ $0.receiveInnerValue(number: number) }) else { return .none }
        return state.deliver(input, to: downstream)
    }

    @inlinable
    func receiveSide(completion: Subscribers.Completion<Failure>, number: Int) {
        state.withLock { $0.receiveInnerCompletion(completion, number: number) }.perform()
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard case .forward(let inner) = state.withLock({ $0.request(demand) }) else { return }
        inner.request(demand)
    }

    @inlinable
    func cancel() {
        // What the machine held is released here, outside the lock.
        state.withLock { $0.cancel() }.perform()
    }

    @usableFromInline
    var description: String { "FlatMapFirst" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
