/// The one subscription of the retry family: `retry(_:)`, `retry(_:when:backoff:scheduler:)`
/// and `retry(on:)`, which differ only in their ``ResubscribePolicy``.
///
/// As in Combine's `retry`, one object is both the downstream's subscription and the subscriber
/// given to the upstream on every attempt; the downstream receives it once, with the first
/// upstream subscription. Outstanding demand carries over to each new attempt. A failed attempt's
/// subscription is released, not cancelled, and the upstream is subscribed again in a loop, so
/// that any number of synchronous failures does not grow the stack.
///
/// The state lives in a ``ResubscribingStateMachine`` behind one lock; the returned actions
/// (calls to the upstream, the downstream, the policy and the wait) run outside it.
@usableFromInline
final class ResubscribingSubscription<Upstream: Publisher, Downstream: Subscriber, Policy: ResubscribePolicy>:
    Subscription, Subscriber, ResubscribeWaitTarget,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure, Policy.Failure == Upstream.Failure {
    @usableFromInline
    typealias Input = Upstream.Output
    @usableFromInline
    typealias Failure = Upstream.Failure
    @usableFromInline
    typealias StateMachine = ResubscribingStateMachine<Upstream, Downstream, Policy>

    @usableFromInline
    let lock = Lock()
    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var state: StateMachine

    @inlinable
    init(upstream: Upstream, policy: Policy, downstream: Downstream) {
        state = StateMachine(upstream: upstream, policy: policy, downstream: downstream)
    }

    /// Makes the first attempt.
    @inlinable
    func start() {
        guard let upstream = lock.withLockUnchecked({ state.start() }) else { return }
        subscribe(upstream)
    }

    /// Subscribes `upstream`, again for as long as a new attempt comes due during the call.
    @inlinable
    func subscribe(_ upstream: Upstream) {
        var next: Upstream? = upstream
        while let upstream = next {
            upstream.receive(subscriber: self)
            next = lock.withLockUnchecked { state.subscribeReturned() }
        }
    }

    // MARK: Subscriber (the upstream's side)

    @inlinable
    func receive(subscription: any Subscription) {
        switch lock.withLockUnchecked({ state.receivedSubscription(subscription) }) {
        case .cancel:
            subscription.cancel()
        case .handOver(let downstream, let demand):
            downstream.receive(subscription: self)
            if demand > 0 { subscription.request(demand) }
        case .request(let demand):
            if demand > 0 { subscription.request(demand) }
        }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard case .deliver(let downstream, let budget) = lock.withLockUnchecked({ state.receivedValue() }) else {
            return .none
        }
        budget?.recordSuccess()
        let additional = downstream.receive(input)
        if additional > 0, let upstream = lock.withLockUnchecked({ state.deliveredValue(additional) }) {
            upstream.request(additional)
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        switch lock.withLockUnchecked({ state.receivedCompletion(completion) }) {
        case .ignore:
            return
        case .finish(let remains, let budget):
            budget?.recordSuccess()
            remains.downstream?.receive(completion: completion)
        case .decide(var policy, let error, _):
            let decision = policy.decide(after: error)
            perform(lock.withLockUnchecked { state.decided(policy, decision, error: error) }, error: error)
        }
    }

    @inlinable
    func perform(_ action: StateMachine.DecidedAction, error: Failure) {
        switch action {
        case .discard, .nothing:
            return
        case .finish(let remains):
            remains.downstream?.receive(completion: .failure(error))
        case .subscribe(let upstream):
            subscribe(upstream)
        case .startWait(let wait, let attempt):
            wait.start(waking: self, attempt: attempt)
        }
    }

    // MARK: ResubscribeWaitTarget

    @inlinable
    func waitStarted(_ wait: any Cancellable, attempt: Int) -> Bool {
        guard lock.withLockUnchecked({ state.waitStarted(wait, attempt: attempt) }) else {
            wait.cancel()
            return false
        }
        return true
    }

    @inlinable
    func waitEnded(attempt: Int) {
        guard case .resubscribe(let wait, let upstream) = lock.withLockUnchecked({ state.waitEnded(attempt: attempt) })
        else { return }
        wait?.cancel()
        if let upstream { subscribe(upstream) }
    }

    @inlinable
    func waitAbandoned(attempt: Int) {
        guard let (error, remains) = lock.withLockUnchecked({ state.waitAbandoned(attempt: attempt) }) else { return }
        remains.downstream?.receive(completion: .failure(error))
    }

    // MARK: Subscription (the downstream's side)

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard let upstream = lock.withLockUnchecked({ state.request(demand) }), demand > 0 else { return }
        upstream.request(demand)
    }

    @inlinable
    func cancel() {
        guard let remains = lock.withLockUnchecked({ state.cancel() }) else { return }
        remains.wait?.cancel()
        remains.upstream?.cancel()
    }

    @usableFromInline
    var description: String { Policy.name }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
