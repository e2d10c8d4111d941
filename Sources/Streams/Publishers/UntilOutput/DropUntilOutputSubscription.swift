/// The subscription behind `drop(untilOutputFrom:)`: it drops the upstream's values until the
/// trigger sends one, then passes them on.
///
/// It is the upstream's subscriber and the downstream's subscription; the trigger's subscriber
/// (a ``SideSubscriber``) reports its description and `combineIdentifier`. As in Combine, the
/// downstream gets the subscription first, then the trigger is subscribed, then the upstream.
/// Its state is a ``DropUntilOutputStateMachine`` behind one lock; the downstream and the
/// subscriptions are called outside it. Values are delivered only once the trigger has fired,
/// and its completion is ignored from then on, so a value and a completion never reach the
/// downstream at the same time.
@usableFromInline
final class DropUntilOutputSubscription<Upstream: Publisher, Trigger: Publisher, Downstream: Subscriber>: Subscriber,
    Subscription, SideSubscriberParent, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure, Trigger.Failure == Downstream.Failure {
    @usableFromInline
    let state: LockedState<DropUntilOutputStateMachine<Box<Downstream>>>

    @inlinable
    init(downstream: Downstream) {
        state = LockedState(DropUntilOutputStateMachine(resources: Box(downstream)))
    }

    /// Hands this subscription downstream, then subscribes to the trigger and the upstream.
    @inlinable
    func start(upstream: Upstream, trigger: Trigger, downstream: Downstream) {
        downstream.receive(subscription: self)
        trigger.receive(subscriber: SideSubscriber(parent: self))
        upstream.receive(subscriber: self)
    }

    // MARK: Upstream

    @inlinable
    func receive(subscription: any Subscription) {
        guard let demand = state.withLock({ $0.upstreamSubscribed(subscription) }) else {
            subscription.cancel()
            return
        }
        if demand > 0 { subscription.request(demand) }
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        switch state.withLock({ $0.upstreamValue() }) {
        case .ignore:
            return .none
        case .drop:
            return .max(1)
        case .deliver(let downstream):
            let additional = downstream.value.receive(input)
            if additional > 0 {
                state.withLock { $0.valueDelivered(returning: additional) }
            }
            return additional
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        perform(state.withLock { $0.upstreamCompleted() }, completion)
    }

    // MARK: Trigger (through a SideSubscriber)

    @inlinable
    func receiveSide(subscription: any Subscription) {
        if state.withLock({ $0.triggerSubscribed(subscription) }) {
            subscription.request(.max(1))
        } else {
            subscription.cancel()
        }
    }

    @inlinable
    func receiveSide(_ input: Trigger.Output) -> Subscribers.Demand {
        state.withLock { $0.triggerValue() }.cancel()
        return .none
    }

    @inlinable
    func receiveSide(completion: Subscribers.Completion<Downstream.Failure>) {
        perform(state.withLock { $0.triggerCompleted() }, completion)
    }

    /// Cancels the other side and sends `completion`, if the machine says so.
    @inlinable
    func perform(
        _ action: DropUntilOutputStateMachine<Box<Downstream>>.CompletionAction,
        _ completion: Subscribers.Completion<Downstream.Failure>
    ) {
        guard case .complete(let downstream, let other) = action else { return }
        other.cancel()
        downstream.value.receive(completion: completion)
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.request(demand) }.request(demand)
    }

    @inlinable
    func cancel() {
        // The downstream leaves the lock with the subscriptions, to be released outside it.
        guard case .cancel(let upstream, let trigger, _) = state.withLock({ $0.cancel() }) else { return }
        upstream?.cancel()
        trigger?.cancel()
    }

    @usableFromInline
    var description: String { "DropUntilOutput" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
