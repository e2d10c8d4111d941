import Streams

/// The subscription of `flatMapFirst`, with its state in a ``FlatMapFirstStateMachine``.
///
/// It subscribes to the upstream through a `SideSubscriber` and to each inner publisher
/// through an ``InnerLink``. The transform, the inner publishers and the downstream are called
/// outside the lock; the downstream is called by one inner publisher at a time, and a failure
/// decided while a value is on its way waits for it to return.
@usableFromInline
// Unchecked: it holds `transform`, a closure that is not Sendable.
final class FlatMapFirstSubscription<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: Subscription,
    SideSubscriberParent, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
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
        switch state.withLock({ $0.receiveUpstreamSubscription(subscription) }) {
        case .requestUnlimited: subscription.request(.unlimited)
        case .cancel: subscription.cancel()
        }
    }

    @inlinable
    func receiveSide(_ input: Upstream.Output) -> Subscribers.Demand {
        guard case .subscribeInner(let number) = state.withLock({ $0.receiveUpstreamValue() }) else { return .none }
        transform(input).receive(subscriber: InnerLink(parent: self, number: number))
        return .none
    }

    @inlinable
    func receiveSide(completion: Subscribers.Completion<Failure>) {
        perform(state.withLock { $0.receiveUpstreamCompletion(completion) })
    }

    // MARK: Inner

    @inlinable
    func receiveInner(subscription: any Subscription, number: Int) {
        switch state.withLock({ $0.receiveInnerSubscription(subscription, number: number) }) {
        case .request(let demand): if demand > 0 { subscription.request(demand) }
        case .cancel: subscription.cancel()
        }
    }

    @inlinable
    func receiveInner(_ input: NewPublisher.Output, number: Int) -> Subscribers.Demand {
        guard case .deliver(let downstream) = state.withLock({ $0.receiveInnerValue(number: number) }) else {
            return .none
        }
        let additional = downstream.value.receive(input)
        perform(state.withLock { $0.delivered(additional) })
        return additional
    }

    @inlinable
    func receiveInner(completion: Subscribers.Completion<Failure>, number: Int) {
        perform(state.withLock { $0.receiveInnerCompletion(completion, number: number) })
    }

    @inlinable
    func perform(_ action: StateMachine.EndAction) {
        switch action {
        case .complete(let downstream, let completion, let cancel):
            cancel?.cancel()
            downstream.value.receive(completion: completion)
        case .cancel(let subscription):
            subscription.cancel()
        case .none:
            break
        }
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
        guard case .cancel(let upstream, let inner, _) = state.withLock({ $0.cancel() }) else { return }
        upstream?.cancel()
        inner?.cancel()
    }

    @usableFromInline
    var description: String { "FlatMapFirst" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }

    /// Subscribes to inner publisher number `number` on behalf of the subscription.
    @usableFromInline
    struct InnerLink: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    {
        @usableFromInline
        typealias Input = NewPublisher.Output
        @usableFromInline
        typealias Failure = NewPublisher.Failure

        @usableFromInline
        let parent: FlatMapFirstSubscription
        @usableFromInline
        let number: Int
        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(parent: FlatMapFirstSubscription, number: Int) {
            self.parent = parent
            self.number = number
        }

        @inlinable
        func receive(subscription: any Subscription) {
            parent.receiveInner(subscription: subscription, number: number)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            parent.receiveInner(input, number: number)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            parent.receiveInner(completion: completion, number: number)
        }

        @usableFromInline
        var description: String { "FlatMapFirst" }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: []) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
