/// The subscription behind `replaceError(with:)` and `asResult()`: values pass through (changed
/// by `transform`); an upstream failure becomes one last value, `recover(error)`, sent as soon
/// as there is demand for it, followed by `.finished`.
///
/// Its state is a ``RecoveringStateMachine`` behind one lock; the downstream and the upstream
/// subscription are called outside it.
@usableFromInline
final class RecoveringSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, Sendable
{
    /// What the subscription holds until it ends, in one object: handing a class reference out
    /// of the lock costs one retain per value.
    @usableFromInline
    final class Core {
        @usableFromInline
        let downstream: Downstream
        @usableFromInline
        let transform: (Input) -> Downstream.Input
        @usableFromInline
        let recover: (UpstreamFailure) -> Downstream.Input

        @inlinable
        init(
            downstream: Downstream, transform: @escaping (Input) -> Downstream.Input,
            recover: @escaping (UpstreamFailure) -> Downstream.Input
        ) {
            self.downstream = downstream
            self.transform = transform
            self.recover = recover
        }
    }

    @usableFromInline
    let name: String
    @usableFromInline
    let state: LockedState<RecoveringStateMachine<Core, UpstreamFailure>>

    @inlinable
    init(
        name: String,
        downstream: Downstream,
        transform: @escaping (Input) -> Downstream.Input,
        recover: @escaping (UpstreamFailure) -> Downstream.Input
    ) {
        self.name = name
        state = LockedState(
            RecoveringStateMachine(resources: Core(downstream: downstream, transform: transform, recover: recover)))
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard case .handOver(let core, let demand) = state.withLock({ $0.subscribed(subscription) }) else {
            subscription.cancel()
            return
        }
        core.downstream.receive(subscription: self)
        if demand > 0 { subscription.request(demand) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard let core = state.withLock({ $0.value() }) else { return .none }
        let additional = core.downstream.receive(core.transform(input))
        if additional > 0 {
            state.withLock { $0.valueDelivered(returning: additional) }
        }
        return additional
    }

    @inlinable
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        let failure: UpstreamFailure? = if case .failure(let error) = completion { error } else { nil }
        perform(state.withLock { $0.completed(failure: failure) })
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        perform(state.withLock { $0.request(demand) }, demand)
    }

    /// Carries out `action` outside the lock; `demand` is what a `.forward` forwards.
    @inlinable
    func perform(_ action: RecoveringStateMachine<Core, UpstreamFailure>.Action, _ demand: Subscribers.Demand = .none) {
        switch action {
        case .none:
            return
        case .finish(let core):
            core.downstream.receive(completion: .finished)
        case .deliverFinal(let core, let failure):
            _ = core.downstream.receive(core.recover(failure))
            core.downstream.receive(completion: .finished)
        case .forward(let subscription):
            subscription.request(demand)
        }
    }

    @inlinable
    func cancel() {
        // The resources leave the lock with the subscription, to be released outside it.
        if case .cancel(let upstream, _) = state.withLock({ $0.cancel() }) { upstream.cancel() }
    }

    @usableFromInline
    var description: String { name }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
