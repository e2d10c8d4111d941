/// The subscription behind `flatMap`; its upstream sees it through a ``SideSubscriber`` with the
/// same `combineIdentifier` (one object in Combine; the subscription itself as the upstream's
/// subscriber makes `PassthroughSubject`'s per-value path slower: see Docs/Performance.md).
///
/// It is handed downstream first, then subscribes to the upstream and asks it for
/// `maxPublishers` publishers, and for one more each time a child publisher finishes. Each child
/// is asked for one value at a time and asked for the next by the `.max(1)` returned for a
/// delivered value, or for unlimited values once the downstream has asked for unlimited. A
/// value no demand is left for waits in a buffer that downstream requests drain. A child whose
/// whole outcome is known (`Publisher._immediateOutcome()`) is not subscribed to: its value and
/// completion take the paths a subscribed child's would.
///
/// The state lives in a ``FlatMapStateMachine`` behind one lock; the returned actions (calls to
/// the upstream, the children, the transform and the downstream) run outside it. The downstream
/// is called by one thread at a time (a ``DeliveryTurn``).
@usableFromInline
final class FlatMapSubscription<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: Subscription,
    SideSubscriberParent, NumberedSideSubscriberParent, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, Sendable
where
    NewPublisher.Output == Downstream.Input, NewPublisher.Failure == Upstream.Failure,
    Upstream.Failure == Downstream.Failure
{
    @usableFromInline
    typealias Failure = Upstream.Failure
    @usableFromInline
    typealias NumberedInput = NewPublisher.Output
    @usableFromInline
    typealias NumberedFailure = NewPublisher.Failure
    @usableFromInline
    typealias StateMachine = FlatMapStateMachine<Downstream.Input, Failure>

    /// What the machine holds until it terminates.
    @usableFromInline
    final class Resources {
        @usableFromInline
        let downstream: Downstream
        @usableFromInline
        let transform: (Upstream.Output) -> NewPublisher

        @inlinable
        init(downstream: Downstream, transform: @escaping (Upstream.Output) -> NewPublisher) {
            self.downstream = downstream
            self.transform = transform
        }
    }

    @usableFromInline
    let maxPublishers: Subscribers.Demand
    @usableFromInline
    let state: LockedState<StateMachine>

    @inlinable
    init(downstream: Downstream, maxPublishers: Subscribers.Demand, transform: @escaping (Upstream.Output) -> NewPublisher) {
        self.maxPublishers = maxPublishers
        state = LockedState(
            StateMachine(
                maxPublishers: maxPublishers, resources: Resources(downstream: downstream, transform: transform)))
    }

    /// The machine's resources, which are always this subscription's.
    @inlinable
    @inline(__always)
    func typed(_ resources: AnyObject) -> Resources {
        unsafeDowncast(resources, to: Resources.self)
    }

    // MARK: Upstream (through a SideSubscriber)

    @inlinable
    func receiveSide(subscription: any Subscription) {
        if state.withLock({ $0.upstreamSubscribed(subscription) }) {
            subscription.request(maxPublishers)
        } else {
            subscription.cancel()
        }
    }

    @inlinable
    func receiveSide(_ input: Upstream.Output) -> Subscribers.Demand {
        guard case .subscribe(let index, let resources) = state.withLock({ $0.upstreamSentValue() }) else { return .none }
        let child = typed(resources).transform(input)
        // A child whose events are known (`Just`, `Fail`, …) is not subscribed to: its events
        // go through the same paths, in the same order, as if it had been. Subscribing would
        // give them at once too, since a child is asked for a value as soon as it subscribes;
        // it would only add its subscription, which nothing outside sees.
        if let outcome = child._immediateOutcome() {
            outcome.replay(
                value: { _ = receiveSide($0, number: index) },
                completion: { receiveSide(completion: $0, number: index) })
        } else {
            child.receive(subscriber: NumberedSideSubscriber(parent: self, number: index))
        }
        return .none
    }

    @inlinable
    @inline(never)
    func receiveSide(completion: Subscribers.Completion<Failure>) {
        let ending = state.withLock { (state) -> ChildrenEnding? in
            switch completion {
            case .finished: state.upstreamFinished()
            case .failure: state.upstreamFailed(completion)
            }
        }
        if let ending { end(ending, with: completion) }
    }

    // MARK: Children (through a NumberedSideSubscriber each, numbered with the child's index)

    @inlinable
    @inline(never)
    func receiveSide(subscription: any Subscription, number index: Int) {
        if let demand = state.withLock({ $0.childSubscribed(index, subscription) }) {
            subscription.request(demand)
        } else {
            subscription.cancel()
        }
    }

    @inlinable
    func receiveSide(_ value: Downstream.Input, number index: Int) -> Subscribers.Demand {
        let thread = ThreadIdentity.current
        var step = state.withLock { $0.childSentValue(value, from: index, thread: thread) }
        if case .wait(let waiter) = step {
            waiter.park()
            step = state.withLock { $0.childValueAfterWait(value, from: index, granted: waiter.granted) }
        }
        switch step {
        case .none, .wait:
            return .none
        case .drain:
            drain(adding: .none)
            return .none
        case .deliver(let resources, let unlimited):
            let answer = deliver(value, with: resources)
            let additional = unlimited ? .none : answer
            if !state.withLock({ $0.letGoIfIdle(adding: additional) }) {
                drain(adding: additional)
            }
            return unlimited ? .none : .max(1)
        }
    }

    @inlinable
    @inline(never)
    func receiveSide(completion: Subscribers.Completion<Failure>, number index: Int) {
        switch completion {
        case .finished:
            switch state.withLock({ $0.childFinished(index) }) {
            case .none:
                break
            case .askForMore(let upstream):
                upstream.request(.max(1))
            case .end(let ending):
                end(ending, with: completion)
            }
        case .failure:
            if let ending = state.withLock({ $0.childFailed(index, completion) }) {
                end(ending, with: completion)
            }
        }
    }

    // MARK: Delivery

    /// Delivers what the buffer and demand allow, asking each delivered value's child for one
    /// more, then sends a completion that is due, then passes the turn on; runs only while
    /// holding the turn. `additional` is the demand the downstream returned for the value just
    /// delivered.
    @inlinable
    @inline(never)
    func drain(adding additional: Subscribers.Demand) {
        var additional = additional
        var child = SubscriptionStatus.terminated
        while true {
            // As in Combine: asked while holding the turn, so a value the child sends from
            // inside this call is buffered.
            child.request(.max(1))
            switch state.withLock({ $0.nextDelivery(adding: additional) }) {
            case .deliver(let resources, let value, let next):
                additional = deliver(value, with: resources)
                child = next
            case .complete(let ending, let failure):
                end(ending, with: failure.map { .failure($0 as! Failure) } ?? .finished)
                return
            case .handOver(let waiter):
                waiter.wake()
                return
            case .stop:
                return
            }
        }
    }

    /// Delivers `value` downstream: one call site for both deliveries, so that the downstream's
    /// chain is inlined once per specialisation.
    @inlinable
    @inline(never)
    func deliver(_ value: Downstream.Input, with resources: AnyObject) -> Subscribers.Demand {
        typed(resources).downstream.receive(value)
    }

    /// Cancels what ending let go of, wakes the threads that waited, and sends `completion` if
    /// it falls to this call.
    @inlinable
    @inline(never)
    func end(_ ending: ChildrenEnding, with completion: Subscribers.Completion<Failure>) {
        ending.cancelAndWake()
        if let resources = ending.resources {
            typed(resources).downstream.receive(completion: completion)
        }
    }

    // MARK: Subscription

    @inlinable
    @inline(never)
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "API Violation: demand must not be zero")
        let thread = ThreadIdentity.current
        guard case .proceed(let drain, let children) = state.withLock({ $0.requested(demand, thread: thread) })
        else { return }
        if drain { self.drain(adding: .none) }
        for child in children { child.request(.unlimited) }
    }

    @inlinable
    @inline(never)
    func cancel() {
        state.withLock { $0.cancelled() }?.cancelAndWake()
    }

    @usableFromInline
    var description: String { "FlatMap" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }

    /// As in Combine: a child's subscriber shows one child, the `combineIdentifier` of the
    /// subscription it works for.
    @usableFromInline
    var numberedMirrorChildren: KeyValuePairs<String, Any> { ["parentSubscription": combineIdentifier] }
}
