/// The subscription behind `catch` and `tryCatch`: it passes the upstream's values on and, when
/// the upstream fails, subscribes to the recovery publisher the handler makes from the error.
///
/// It is the upstream's subscriber and the downstream's one subscription for the whole stream;
/// the recovery's subscriber (a ``SideSubscriber``) reports its description, mirror and
/// `combineIdentifier`. Its state is a ``CatchStateMachine`` behind one lock; the handler, the
/// downstream and the subscriptions are called outside it. A recovery publisher whose whole
/// outcome is known (`Just`, `Fail`, …) and would be delivered at once is not subscribed to.
@usableFromInline
final class CatchSubscription<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: Subscriber,
    Subscription, SideSubscriberParent, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    Sendable
where Upstream.Output == Downstream.Input, NewPublisher.Output == Downstream.Input {
    /// Makes the recovery publisher from the upstream's error, or says which error to fail with.
    @usableFromInline
    typealias Recover = (Upstream.Failure) -> Result<NewPublisher, Downstream.Failure>

    /// What the subscription holds until it completes, in one object: handing a class reference
    /// out of the lock costs one retain per value.
    @usableFromInline
    final class Core {
        @usableFromInline
        let downstream: Downstream
        @usableFromInline
        let recover: Recover
        @usableFromInline
        let mapRecoveryFailure: (NewPublisher.Failure) -> Downstream.Failure

        @inlinable
        init(
            downstream: Downstream, recover: @escaping Recover,
            mapRecoveryFailure: @escaping (NewPublisher.Failure) -> Downstream.Failure
        ) {
            self.downstream = downstream
            self.recover = recover
            self.mapRecoveryFailure = mapRecoveryFailure
        }
    }

    @usableFromInline
    let name: String
    @usableFromInline
    let state: LockedState<CatchStateMachine>

    /// The machine's resources, which are always this subscription's core.
    @inlinable
    func typed(_ resources: AnyObject) -> Core {
        unsafeDowncast(resources, to: Core.self)
    }

    @inlinable
    init(
        name: String, downstream: Downstream,
        mapRecoveryFailure: @escaping (NewPublisher.Failure) -> Downstream.Failure,
        recover: @escaping Recover
    ) {
        self.name = name
        state = LockedState(
            CatchStateMachine(
                resources: Core(downstream: downstream, recover: recover, mapRecoveryFailure: mapRecoveryFailure)))
    }

    // MARK: Upstream

    @inlinable
    func receive(subscription: any Subscription) {
        switch state.withLock({ $0.upstreamSubscribed(subscription) }) {
        case .handOver(let core): typed(core).downstream.receive(subscription: self)
        case .cancel: subscription.cancel()
        case .request, .none: return
        }
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        guard let core = state.withLock({ $0.upstreamValue() }) else { return .none }
        let additional = typed(core).downstream.receive(input)
        if additional > 0 {
            state.withLock { $0.upstreamValueDelivered(returning: additional) }
        }
        return additional
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
        switch completion {
        case .finished:
            perform(state.withLock { $0.upstreamCompleted(failed: false) }, .finished)
        case .failure(let error):
            guard case .recover(let core) = state.withLock({ $0.upstreamCompleted(failed: true) }) else {
                return
            }
            switch typed(core).recover(error) {
            case .success(let publisher):
                recover(from: publisher)
            case .failure(let thrown):
                perform(state.withLock { $0.handlerThrew() }, .failure(thrown))
            }
        }
    }

    /// Subscribes to the recovery publisher; or, when its whole outcome is known
    /// (`Publisher._immediateOutcome()`) and subscribing would deliver it at once (there is
    /// demand for its value, or it has none), passes its events on through the same paths, in
    /// the same order, without the subscription.
    @inlinable
    func recover(from publisher: NewPublisher) {
        guard let outcome = publisher._immediateOutcome() else {
            publisher.receive(subscriber: SideSubscriber(parent: self))
            return
        }
        let hasValue = if case .success(.some) = outcome { true } else { false }
        switch state.withLock({ $0.recoveredImmediately(hasValue: hasValue) }) {
        case .subscribe:
            publisher.receive(subscriber: SideSubscriber(parent: self))
        case .ignore:
            return
        case .deliver:
            outcome.replay(value: { _ = receiveSide($0) }, completion: { receiveSide(completion: $0) })
        }
    }

    /// Sends `completion` downstream if the machine says so.
    @inlinable
    func perform(
        _ action: CatchStateMachine.CompletionAction, _ completion: Subscribers.Completion<Downstream.Failure>
    ) {
        if case .complete(let core) = action {
            typed(core).downstream.receive(completion: completion)
        }
    }

    // MARK: Recovery (through a SideSubscriber)

    @inlinable
    func receiveSide(subscription: any Subscription) {
        switch state.withLock({ $0.recoverySubscribed(subscription) }) {
        case .request(let demand): subscription.request(demand)
        case .cancel: subscription.cancel()
        case .handOver, .none: return
        }
    }

    @inlinable
    func receiveSide(_ input: Downstream.Input) -> Subscribers.Demand {
        guard let core = state.withLock({ $0.recoveryValue() }) else { return .none }
        return typed(core).downstream.receive(input)
    }

    @inlinable
    func receiveSide(completion: Subscribers.Completion<NewPublisher.Failure>) {
        guard case .complete(let resources) = state.withLock({ $0.recoveryCompleted() }) else { return }
        let core = typed(resources)
        core.downstream.receive(completion: completion.mapError(core.mapRecoveryFailure))
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.request(demand) }.request(demand)
    }

    @inlinable
    func cancel() {
        // The resources leave the lock with the subscription, to be released outside it.
        if case .cancel(let active, _) = state.withLock({ $0.cancel() }) { active.cancel() }
    }

    @usableFromInline
    var description: String { name }

    @usableFromInline
    var customMirror: Mirror {
        state.withLock { state in
            Mirror(
                self, children: ["downstream": state.resources.map { typed($0).downstream } as Any, "demand": state.demand])
        }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
