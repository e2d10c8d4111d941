/// The subscription behind `prefix(untilOutputFrom:)`: it passes the upstream's values on until
/// the trigger sends one, then cancels both and finishes.
///
/// It is the upstream's subscriber and the downstream's subscription; the trigger's subscriber
/// (a ``SideSubscriber``) shares its `combineIdentifier`. As in Combine, neither conforms to
/// `CustomStringConvertible`, `CustomReflectable` or `CustomPlaygroundDisplayConvertible`. Its
/// state is a ``PrefixUntilOutputStateMachine`` behind one lock; the downstream and the
/// subscriptions are called outside it, one delivery at a time.
@usableFromInline
final class PrefixUntilOutputSubscription<Upstream: Publisher, Trigger: Publisher, Downstream: Subscriber>: Subscriber,
    Subscription, SideSubscriberParent, Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline
    typealias Machine = PrefixUntilOutputStateMachine<Box<Downstream>, Downstream.Input, Downstream.Failure>

    @usableFromInline
    let state: LockedState<Machine>

    @inlinable
    init(downstream: Downstream) {
        state = LockedState(Machine(resources: Box(downstream)))
    }

    /// Subscribes to the trigger, then to the upstream.
    @inlinable
    func start(upstream: Upstream, trigger: Trigger) {
        trigger.receive(subscriber: SideSubscriber(parent: self))
        upstream.receive(subscriber: self)
    }

    // MARK: Upstream

    @inlinable
    func receive(subscription: any Subscription) {
        let thread = ThreadIdentity.current
        switch state.withLock({ $0.upstreamSubscribed(subscription, thread: thread) }) {
        case .handOver(let downstream):
            downstream.value.receive(subscription: self)
            endDelivery()
        case .handOverAndFinish(let downstream):
            subscription.cancel()
            downstream.value.receive(subscription: self)
            downstream.value.receive(completion: .finished)
        case .cancel:
            subscription.cancel()
        }
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        let thread = ThreadIdentity.current
        switch state.withLock({ $0.upstreamValue(input, thread: thread) }) {
        case .ignore:
            return .none
        case .deliver(let downstream, let nested):
            let demand = downstream.value.receive(input)
            if !nested { endDelivery() }
            return demand
        case .wait(let waiter):
            waiter.park()
            switch state.withLock({ $0.resumeDelivery(waiter) }) {
            case .end(let end):
                perform(end)
                return .none
            case .deliver(let downstream):
                let demand = downstream.value.receive(input)
                endDelivery()
                return demand
            }
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        let thread = ThreadIdentity.current
        perform(state.withLock { $0.upstreamCompleted(completion, thread: thread) }, completion)
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
        let thread = ThreadIdentity.current
        perform(state.withLock { $0.triggerValue(thread: thread) }, .finished)
        return .none
    }

    @inlinable
    func receiveSide(completion: Subscribers.Completion<Trigger.Failure>) {
        state.withLock { $0.triggerCompleted() }
    }

    // MARK: Delivery

    /// Cancels what the machine says, then delivers `completion` now or after waiting for the
    /// turn.
    @inlinable
    func perform(_ action: Machine.CompletionAction, _ completion: Subscribers.Completion<Downstream.Failure>) {
        switch action {
        case .none:
            return
        case .deliver(let downstream, let upstream, let trigger):
            upstream.cancel()
            trigger.cancel()
            downstream?.value.receive(completion: completion)
        case .queued(let upstream, let trigger):
            upstream.cancel()
            trigger.cancel()
        case .wait(let waiter, let upstream, let trigger):
            upstream.cancel()
            trigger.cancel()
            waiter.park()
            guard case .deliver(let downstream, let dismissed) = state.withLock({ $0.resumeCompletion(waiter) }) else {
                return
            }
            for waiter in dismissed { waiter.wake() }
            downstream?.value.receive(completion: completion)
        }
    }

    /// Ends the delivery this thread made while holding the turn.
    @inlinable
    func endDelivery() {
        while true {
            let end = state.withLock { $0.endDelivery() }
            guard case .deliver(let downstream, let value, let upstream) = end else { return perform(end) }
            deliverQueued(value, to: downstream, askingFor: upstream)
        }
    }

    /// Delivers a value another thread queued for this one, and asks the upstream for the
    /// demand the downstream returns.
    @inlinable
    func deliverQueued(_ value: Downstream.Input, to downstream: Box<Downstream>, askingFor upstream: SubscriptionStatus) {
        let demand = downstream.value.receive(value)
        if demand > 0 { upstream.request(demand) }
    }

    @inlinable
    func perform(_ end: Machine.EndAction) {
        switch end {
        case .none:
            return
        case .wake(let waiter):
            waiter.wake()
        case .deliver(let downstream, let value, let upstream):
            deliverQueued(value, to: downstream, askingFor: upstream)
            endDelivery()
        case .complete(let downstream, let completion, let dismissed):
            for waiter in dismissed { waiter.wake() }
            downstream.value.receive(completion: completion)
        }
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.request() }.request(demand)
    }

    @inlinable
    func cancel() {
        // The downstream leaves the lock with the subscriptions, to be released outside it.
        switch state.withLock({ $0.cancel() }) {
        case .end(let upstream, let trigger, _, _):
            upstream.cancel()
            trigger.cancel()
        }
    }
}
