import Streams

/// The subscription of `retryWhen`, with its state in a ``RetryWhenStateMachine``.
///
/// It makes the trigger from the publisher of the upstream's failures and subscribes to it
/// through a `SideSubscriber`, then subscribes to the upstream, once per attempt, through a
/// `NumberedSideSubscriber` numbered with the attempt. The handler, the publishers and the downstream are called outside the lock.
/// An attempt asked for while one is being subscribed (an upstream that fails at once, and a
/// trigger that answers at once) is made by the loop already subscribing, not by recursion.
@usableFromInline
// Unchecked: it holds the upstream, which need not be Sendable.
final class RetryWhenSubscription<Upstream: Publisher, Trigger: Publisher, Downstream: Subscriber>: Subscription,
    SideSubscriberParent, NumberedSideSubscriberParent, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline
    typealias Failure = Upstream.Failure
    @usableFromInline
    typealias SideInput = Trigger.Output
    @usableFromInline
    typealias SideFailure = Trigger.Failure
    @usableFromInline
    typealias NumberedInput = Upstream.Output
    @usableFromInline
    typealias NumberedFailure = Upstream.Failure
    @usableFromInline
    typealias StateMachine = RetryWhenStateMachine<Downstream>

    @usableFromInline
    let upstream: Upstream
    /// The upstream's failures, for the trigger to watch.
    @usableFromInline
    let failures = PassthroughSubject<Upstream.Failure, Never>()
    @usableFromInline
    let state: LockedState<StateMachine>

    @inlinable
    init(upstream: Upstream, downstream: Downstream) {
        self.upstream = upstream
        state = LockedState(StateMachine(downstream: downstream))
    }

    /// Subscribes to the trigger `handler` makes, then makes the first attempt.
    @inlinable
    func start(_ handler: (AnyPublisher<Upstream.Failure, Never>) -> Trigger) {
        handler(failures.eraseToAnyPublisher()).receive(subscriber: SideSubscriber(parent: self))
        attempt()
    }

    /// Makes a new attempt, unless the thread subscribing one takes it up.
    @inlinable
    func attempt() {
        guard case .subscribe(var number, let replaced) = perform(state.withLock({ $0.requestAttempt() })) else { return }
        replaced?.cancel()
        while true {
            upstream.receive(subscriber: NumberedSideSubscriber(parent: self, number: number))
            guard case .subscribe(let next) = state.withLock({ $0.attemptSubscribed() }) else { return }
            number = next
        }
    }

    @inlinable
    func perform(_ action: StateMachine.AttemptAction) -> StateMachine.AttemptAction {
        if case .cancel(let replaced) = action { replaced.cancel() }
        return action
    }

    // MARK: Upstream, attempt `number`

    @inlinable
    func receiveSide(subscription: any Subscription, number: Int) {
        state.withLock { $0.receiveUpstreamSubscription(subscription, number: number) }.apply(to: subscription)
    }

    @inlinable
    func receiveSide(_ input: Upstream.Output, number: Int) -> Subscribers.Demand {
        guard let downstream = state.withLock({ $0.receiveUpstreamValue(number: number) }) else { return .none }
        return state.deliver(input, to: downstream)
    }

    @inlinable
    func receiveSide(completion: Subscribers.Completion<Failure>, number: Int) {
        switch state.withLock({ $0.receiveUpstreamCompletion(completion, number: number) }) {
        case .notifyTrigger(let failure): failures.send(failure)
        case .end(let action): action.perform()
        }
    }

    // MARK: Trigger

    @inlinable
    func receiveSide(subscription: any Subscription) {
        state.withLock { $0.receiveTriggerSubscription(subscription) }.apply(to: subscription)
    }

    @inlinable
    func receiveSide(_ input: Trigger.Output) -> Subscribers.Demand {
        attempt()
        return .none
    }

    @inlinable
    func receiveSide(completion: Subscribers.Completion<Trigger.Failure>) {
        let ending: Subscribers.Completion<Failure>
        switch completion {
        case .finished:
            ending = .finished
        case .failure(let failure):
            // A trigger failure of another type than the upstream's cannot be passed on: it
            // finishes the stream, as the trigger's finishing does.
            ending = (failure as? Failure).map { .failure($0) } ?? .finished
        }
        state.withLock { $0.receiveTriggerCompletion(ending) }.perform()
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard case .forward(let upstream) = state.withLock({ $0.request(demand) }) else { return }
        upstream.request(demand)
    }

    @inlinable
    func cancel() {
        // What the machine held is released here, outside the lock.
        state.withLock { $0.cancel() }.perform()
    }

    @usableFromInline
    var description: String { "RetryWhen" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
