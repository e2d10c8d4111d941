/// The subscription behind `switchToLatest`, and the subscriber its upstream sees (one object,
/// as in Combine).
///
/// It is handed downstream first, then subscribes to the upstream and asks it for unlimited
/// publishers. A new child publisher cancels the current one first, then is subscribed and
/// asked for the downstream's outstanding demand. A child's value is delivered and the
/// downstream's answer returned to the child; a value no demand was requested for traps, as in
/// Combine.
///
/// The state lives in a ``SwitchToLatestStateMachine`` behind one lock; the returned actions
/// (calls to the upstream, the children and the downstream) run outside it. The downstream is
/// called by one thread at a time (a ``DeliveryTurn``).
@usableFromInline
final class SwitchToLatestSubscription<Child: Publisher, Downstream: Subscriber>: Subscription, Subscriber,
    NumberedSideSubscriberParent, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, Sendable
where Child.Output == Downstream.Input, Child.Failure == Downstream.Failure {
    @usableFromInline
    typealias Input = Child
    @usableFromInline
    typealias Failure = Child.Failure
    @usableFromInline
    typealias NumberedInput = Child.Output
    @usableFromInline
    typealias NumberedFailure = Child.Failure
    @usableFromInline
    typealias StateMachine = SwitchToLatestStateMachine<Downstream.Input, Failure>

    /// What the machine holds until it terminates.
    @usableFromInline
    final class Resources {
        @usableFromInline
        let downstream: Downstream

        @inlinable
        init(downstream: Downstream) {
            self.downstream = downstream
        }
    }

    @usableFromInline
    let state: LockedState<StateMachine>

    @inlinable
    init(downstream: Downstream) {
        state = LockedState(StateMachine(resources: Resources(downstream: downstream)))
    }

    /// The machine's resources, which are always this subscription's.
    @inlinable
    @inline(__always)
    func typed(_ resources: AnyObject) -> Resources {
        unsafeDowncast(resources, to: Resources.self)
    }

    // MARK: Upstream

    @inlinable
    func receive(subscription: any Subscription) {
        if state.withLock({ $0.upstreamSubscribed(subscription) }) {
            subscription.request(.unlimited)
        } else {
            subscription.cancel()
        }
    }

    @inlinable
    func receive(_ input: Child) -> Subscribers.Demand {
        guard case .subscribe(let generation, let previous) = state.withLock({ $0.upstreamSentChild() }) else {
            return .none
        }
        previous.cancel()
        input.receive(subscriber: NumberedSideSubscriber(parent: self, number: generation))
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let ending = state.withLock { (state) -> ChildrenEnding? in
            switch completion {
            case .finished: state.upstreamFinished()
            case .failure: state.upstreamFailed(completion)
            }
        }
        if let ending { end(ending, with: completion) }
    }

    // MARK: Children (through a NumberedSideSubscriber each, numbered with the child's generation)

    @inlinable
    func receiveSide(subscription: any Subscription, number generation: Int) {
        guard let demand = state.withLock({ $0.childSubscribed(generation, subscription) }) else {
            subscription.cancel()
            return
        }
        if demand > 0 { subscription.request(demand) }
    }

    @inlinable
    func receiveSide(_ value: Downstream.Input, number generation: Int) -> Subscribers.Demand {
        let thread = ThreadIdentity.current
        var step = state.withLock { $0.childSentValue(value, generation: generation, thread: thread) }
        if case .wait(let waiter) = step {
            waiter.park()
            step = state.withLock { $0.childValueAfterWait(value, granted: waiter.granted) }
        }
        switch step {
        case .none, .wait:
            return .none
        case .withoutDemand:
            preconditionFailure("switchToLatest received a value without demand")
        case .drain:
            drain(adding: .none)
            return .none
        case .deliver(let resources):
            let additional = typed(resources).downstream.receive(value)
            if !state.withLock({ $0.letGoIfIdle(adding: additional) }) {
                drain(adding: additional)
            }
            return additional
        }
    }

    @inlinable
    func receiveSide(completion: Subscribers.Completion<Failure>, number generation: Int) {
        let step = state.withLock { (state) -> StateMachine.CompletionStep in
            switch completion {
            case .finished: state.childFinished(generation)
            case .failure: state.childFailed(generation, completion)
            }
        }
        switch step {
        case .none:
            return
        case .beforeSubscription:
            preconditionFailure("switchToLatest: Unexpected completion (a child completed before its subscription)")
        case .end(let ending):
            end(ending, with: completion)
        }
    }

    // MARK: Delivery

    /// Delivers the values queued behind the delivery just made, then sends a completion that
    /// is due, then passes the turn on; runs only while holding the turn. `additional` is the
    /// demand the downstream returned for the value just delivered (returned to its child).
    @inlinable
    func drain(adding additional: Subscribers.Demand) {
        var additional = additional
        while true {
            switch state.withLock({ $0.nextDelivery(adding: additional) }) {
            case .deliver(let resources, let value):
                // Nobody to return it to: ask the current child for it.
                let more = typed(resources).downstream.receive(value)
                additional = .none
                if more > 0 { forward(more) }
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

    /// Cancels what ending let go of, wakes the threads that waited, and sends `completion` if
    /// it falls to this call.
    @inlinable
    func end(_ ending: ChildrenEnding, with completion: Subscribers.Completion<Failure>) {
        ending.cancelAndWake()
        if let resources = ending.resources {
            typed(resources).downstream.receive(completion: completion)
        }
    }

    /// Adds `demand` and asks the current child for it.
    @inlinable
    func forward(_ demand: Subscribers.Demand) {
        state.withLock { $0.requested(demand) }.request(demand)
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "API Violation: demand must not be zero")
        forward(demand)
    }

    @inlinable
    func cancel() {
        state.withLock { $0.cancelled() }?.cancelAndWake()
    }

    @usableFromInline
    var description: String { "SwitchToLatest" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }

    /// As in Combine: a child's subscriber shows one child, the `combineIdentifier` of the
    /// subscription it works for.
    @usableFromInline
    var numberedMirrorChildren: KeyValuePairs<String, Any> { ["parentSubscription": combineIdentifier] }
}
