import Streams

/// The subscription of `materialize()`, with its state in a ``MaterializeStateMachine``.
///
/// Values go downstream wrapped in `.value`, outside the lock; the upstream's completion becomes
/// one last event, sent when the downstream has demand for it, followed by `.finished`.
@usableFromInline
final class MaterializeSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, Sendable
where Downstream.Input == Event<Input, UpstreamFailure>, Downstream.Failure == Never {
    @usableFromInline
    let state: LockedState<MaterializeStateMachine<Downstream>>

    @inlinable
    init(downstream: Downstream) {
        state = LockedState(MaterializeStateMachine(downstream: downstream))
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
        guard case .deliver(let downstream) = state.withLock({ $0.receiveValue() }) else { return .none }
        let additional = downstream.value.receive(.value(input))
        // The demand is kept here and also returned upstream, which adds it to its own.
        perform(state.withLock { $0.valueDelivered(returning: additional) })
        return additional
    }

    @inlinable
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        let last: Event<Input, UpstreamFailure>
        switch completion {
        case .finished: last = .finished
        case .failure(let error): last = .failure(error)
        }
        perform(state.withLock { $0.receiveCompletion(last: last) })
    }

    @inlinable
    func perform(_ action: MaterializeStateMachine<Downstream>.DeliverLastAction) {
        guard case .deliverLast(let downstream, let last) = action else { return }
        _ = downstream.value.receive(last)
        downstream.value.receive(completion: .finished)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        switch state.withLock({ $0.request(demand) }) {
        case .forward(let upstream):
            upstream.request(demand)
        case .deliverLast(let downstream, let last):
            _ = downstream.value.receive(last)
            downstream.value.receive(completion: .finished)
        case .none:
            break
        }
    }

    @inlinable
    func cancel() {
        // What the machine held is released here, outside the lock.
        if case .cancel(let upstream, _) = state.withLock({ $0.cancel() }) {
            upstream.cancel()
        }
    }

    @usableFromInline
    var description: String { "Materialize" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
