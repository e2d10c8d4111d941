import Streams

/// The subscription of `dematerialize()`, with its state in a ``DematerializeStateMachine``.
///
/// Each event is read (`event`, which a type of the user's may compute) outside the lock; a
/// `.value` goes downstream, and the first `.finished` or `.failure` cancels the upstream and
/// completes the downstream. Demand passes through to the upstream.
@usableFromInline
final class DematerializeSubscription<Input: EventConvertible, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, Sendable
where Downstream.Input == Input.Output, Downstream.Failure == Input.Failure {
    @usableFromInline
    typealias Failure = Never

    @usableFromInline
    let state: LockedState<DematerializeStateMachine<Downstream>>

    @inlinable
    init(downstream: Downstream) {
        state = LockedState(DematerializeStateMachine(downstream: downstream))
    }

    @inlinable
    func receive(subscription: any Subscription) {
        switch state.withLock({ $0.receiveSubscription(subscription) }) {
        case .attach(let downstream):
            downstream.value.receive(subscription: self)
        case .cancel:
            subscription.cancel()
        }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let completion: Subscribers.Completion<Input.Failure>
        switch input.event {
        case .value(let value):
            guard case .deliver(let downstream) = state.withLock({ $0.receiveValueEvent() }) else { return .none }
            return downstream.value.receive(value)
        case .finished:
            completion = .finished
        case .failure(let error):
            completion = .failure(error)
        }
        guard case .complete(let downstream, let upstream) = state.withLock({ $0.receiveEndEvent() }) else { return .none }
        upstream.cancel()
        downstream.value.receive(completion: completion)
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Never>) {
        guard case .finish(let downstream) = state.withLock({ $0.receiveCompletion() }) else { return }
        downstream.value.receive(completion: .finished)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard case .forward(let upstream) = state.withLock({ $0.request() }) else { return }
        upstream.request(demand)
    }

    @inlinable
    func cancel() {
        // What the machine held is released here, outside the lock.
        if case .cancel(let upstream, _) = state.withLock({ $0.cancel() }) {
            upstream.cancel()
        }
    }

    @usableFromInline
    var description: String { "Dematerialize" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
