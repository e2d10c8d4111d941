/// The subscription behind `append` and `prepend`: it passes on the prefix's values, then, once
/// the prefix finishes, the suffix's.
///
/// It is the downstream's one subscription for the whole stream. As in Combine, the prefix and
/// the suffix are subscribed to through objects of their own (a ``ConcatenatePrefixSubscriber``
/// and a ``SideSubscriber``) that report its description and `combineIdentifier`. Its state is a
/// ``ConcatenateStateMachine`` behind one lock; the downstream and the subscriptions are called
/// outside it.
@usableFromInline
final class ConcatenateSubscription<Prefix: Publisher, Suffix: Publisher, Downstream: Subscriber>: Subscription,
    SideSubscriberParent, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    Sendable
where
    Prefix.Output == Downstream.Input, Suffix.Output == Downstream.Input, Prefix.Failure == Downstream.Failure,
    Suffix.Failure == Downstream.Failure
{
    /// What the subscription holds until it ends, in one object: handing a class reference out
    /// of the lock costs one retain per value.
    @usableFromInline
    final class Core {
        @usableFromInline
        let downstream: Downstream
        @usableFromInline
        let suffix: Suffix

        @inlinable
        init(downstream: Downstream, suffix: Suffix) {
            self.downstream = downstream
            self.suffix = suffix
        }
    }

    @usableFromInline
    let state: LockedState<ConcatenateStateMachine<Core>>

    @inlinable
    init(downstream: Downstream, suffix: Suffix) {
        state = LockedState(ConcatenateStateMachine(resources: Core(downstream: downstream, suffix: suffix)))
    }

    // MARK: Prefix (through a ConcatenatePrefixSubscriber)

    @inlinable
    func receivePrefix(subscription: any Subscription) {
        switch state.withLock({ $0.prefixSubscribed(subscription) }) {
        case .handOver(let core, let demand):
            core.downstream.receive(subscription: self)
            if demand > 0 { subscription.request(demand) }
        case .cancel:
            subscription.cancel()
        case .request:
            return
        }
    }

    @inlinable
    func receivePrefix(_ input: Downstream.Input) -> Subscribers.Demand {
        guard let core = state.withLock({ $0.prefixValue() }) else { return .none }
        let additional = core.downstream.receive(input)
        if additional > 0 {
            state.withLock { $0.prefixValueDelivered(returning: additional) }
        }
        return additional
    }

    @inlinable
    func receivePrefix(completion: Subscribers.Completion<Downstream.Failure>) {
        let failed = if case .failure = completion { true } else { false }
        switch state.withLock({ $0.prefixCompleted(failed: failed) }) {
        case .subscribeSuffix(let core): core.suffix.receive(subscriber: SideSubscriber(parent: self))
        case .complete(let core): core.downstream.receive(completion: completion)
        case .none: return
        }
    }

    // MARK: Suffix (through a SideSubscriber)

    @inlinable
    func receiveSide(subscription: any Subscription) {
        switch state.withLock({ $0.suffixSubscribed(subscription) }) {
        case .request(let demand): if demand > 0 { subscription.request(demand) }
        case .cancel: subscription.cancel()
        case .handOver: return
        }
    }

    @inlinable
    func receiveSide(_ input: Downstream.Input) -> Subscribers.Demand {
        guard let core = state.withLock({ $0.suffixValue() }) else { return .none }
        return core.downstream.receive(input)
    }

    @inlinable
    func receiveSide(completion: Subscribers.Completion<Downstream.Failure>) {
        guard case .complete(let core) = state.withLock({ $0.suffixCompleted() }) else { return }
        core.downstream.receive(completion: completion)
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
    var description: String { "Concatenate" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
