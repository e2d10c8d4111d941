/// The one subscription of the retry family: `retry(_:)`, `retry(_:when:backoff:scheduler:)`
/// and `retry(on:)`, which differ only in their ``ResubscribePolicy``.
///
/// As in Combine's `retry`, one object is both the downstream's subscription and the subscriber
/// given to the upstream on every attempt; the downstream receives it once, with the first
/// upstream subscription. Outstanding demand carries over to each new attempt. A value is
/// delivered, `.none` is returned and the downstream's answer is requested upstream. A failed
/// attempt's subscription is released, not cancelled, and the upstream is subscribed again in a
/// loop, so that any number of synchronous failures does not grow the stack.
///
/// The state lives in a ``ResubscribingStateMachine`` behind one lock; the returned actions
/// (calls to the upstream, the downstream, the policy and its wait) run outside it, each cleared
/// by the machine just before it, so that once `cancel()` has returned at most a call already
/// cleared on another thread still runs, and nothing begins after it.
@usableFromInline
package final class ResubscribingSubscription<Upstream: Publisher, Downstream: Subscriber, Policy: ResubscribePolicy>:
    Subscription, Subscriber, ResubscribeWaitTarget,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure, Policy.Failure == Upstream.Failure {
    @usableFromInline
    package typealias Input = Upstream.Output
    @usableFromInline
    package typealias Failure = Upstream.Failure
    @usableFromInline
    package typealias Resources = ResubscribingResources<Upstream, Downstream, Policy>

    @usableFromInline
    package let state: LockedState<ResubscribingStateMachine>

    @inlinable
    package init(upstream: Upstream, policy: Policy, downstream: Downstream) {
        state = LockedState(
            ResubscribingStateMachine(resources: Resources(upstream: upstream, downstream: downstream, policy: policy)))
    }

    /// The machine's resources, which are always this subscription's.
    @inlinable
    @inline(__always)
    package func typed(_ resources: AnyObject) -> Resources {
        unsafeDowncast(resources, to: Resources.self)
    }

    /// Makes the first attempt.
    @inlinable
    package func start() {
        guard let resources = state.withLock({ $0.start() }) else { return }
        subscribe(with: typed(resources))
    }

    /// Subscribes to the upstream, again for as long as a new attempt comes due during the call.
    @inlinable
    package func subscribe(with resources: Resources) {
        var next: Resources? = resources
        while let resources = next {
            // After a call out, a cancel meanwhile means the attempt is not made.
            if !resources.policy.attemptStarted() || !state.withLock({ $0.isTerminated }) {
                resources.upstream.receive(subscriber: self)
            }
            next = state.withLock { $0.subscribeReturned() }.map(typed)
        }
    }

    // MARK: Subscriber (the upstream's side)

    @inlinable
    package func receive(subscription: any Subscription) {
        switch state.withLock({ $0.receivedSubscription(subscription) }) {
        case .cancel:
            subscription.cancel()
        case .handOver(let resources, let demand):
            typed(resources).downstream.receive(subscription: self)
            if demand > 0 { subscription.request(demand) }
        case .request(let demand):
            if demand > 0 { subscription.request(demand) }
        }
    }

    @inlinable
    package func receive(_ input: Input) -> Subscribers.Demand {
        switch state.withLock({ $0.receivedValue() }) {
        case .ignore:
            return .none
        case .withoutDemand:
            preconditionFailure("\(Policy.name) received a value without demand")
        case .deliver(let untyped, let firstSuccess):
            let resources = typed(untyped)
            if firstSuccess { resources.policy.attemptSucceeded() }
            let additional = resources.downstream.receive(input)
            if additional > 0, let upstream = state.withLock({ $0.deliveredValue(additional) }) {
                upstream.request(additional)
            }
            return .none
        }
    }

    @inlinable
    package func receive(completion: Subscribers.Completion<Failure>) {
        let finished: Bool
        if case .finished = completion { finished = true } else { finished = false }
        switch state.withLock({ $0.receivedCompletion(finished: finished) }) {
        case .ignore:
            return
        case .finish(let remains, let firstSuccess):
            guard let resources = remains.resources.map(typed) else { return }
            if firstSuccess { resources.policy.attemptSucceeded() }
            resources.policy.attemptEnded(failure: nil)
            resources.downstream.receive(completion: completion)
        case .decide(let untyped, let attempt, _):
            guard case .failure(let error) = completion else { return }
            let resources = typed(untyped)
            resources.policy.attemptEnded(failure: error)
            decide(after: error, attempt: attempt, resources: resources)
        }
    }

    /// Asks the policy about the failure `error` of attempt `attempt` and does what it says.
    @inlinable
    package func decide(after error: Failure, attempt: Int, resources: Resources) {
        let decision = resources.policy.decide(after: error, attempt: attempt, checking: self)
        switch state.withLock({ $0.decided(decision) }) {
        case .nothing:
            return
        case .cancelled:
            resources.policy.dropped(decision)
        case .finish(let remains):
            guard let resources = remains.resources.map(typed) else { return }
            if case .giveUp(let reason) = decision {
                resources.policy.gaveUp(reason: reason, error: error, attempt: attempt)
            }
            resources.downstream.receive(completion: .failure(error))
        case .subscribe(let resources):
            subscribe(with: typed(resources))
        case .startWait(let resources, let attempt, let delay):
            typed(resources).policy.startWait(after: error, attempt: attempt, delay: delay, waking: self)
        }
    }

    // MARK: ResubscribeWaitTarget

    @inlinable
    package func mayProceed(afterFailureOf attempt: Int) -> Bool {
        switch state.withLock({ $0.mayProceed(afterFailureOf: attempt) }) {
        case .proceed: true
        case .cancelled: false
        }
    }

    @inlinable
    package func waitStarted(_ wait: any Cancellable, attempt: Int) -> Bool {
        guard state.withLock({ $0.waitStarted(wait, attempt: attempt) }) else {
            wait.cancel()
            return false
        }
        return true
    }

    @inlinable
    package func waitEnded(attempt: Int) {
        guard case .resubscribe(let wait, let subscribes) = state.withLock({ $0.waitEnded(attempt: attempt) })
        else { return }
        wait?.cancel()
        guard subscribes, case .subscribe(let resources) = state.withLock({ $0.willSubscribe() }) else { return }
        subscribe(with: typed(resources))
    }

    @inlinable
    package func waitAbandoned(attempt: Int, error: Failure) {
        guard let remains = state.withLock({ $0.waitAbandoned(attempt: attempt) }) else { return }
        remains.resources.map(typed)?.downstream.receive(completion: .failure(error))
    }

    // MARK: Subscription (the downstream's side)

    @inlinable
    package func request(_ demand: Subscribers.Demand) {
        guard let upstream = state.withLock({ $0.request(demand) }), demand > 0 else { return }
        upstream.request(demand)
    }

    @inlinable
    package func cancel() {
        guard let remains = state.withLock({ $0.cancel() }) else { return }
        remains.wait?.cancel()
        remains.upstream?.cancel()
    }

    @usableFromInline
    package var description: String { Policy.name }

    @usableFromInline
    package var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    package var playgroundDescription: Any { description }
}
