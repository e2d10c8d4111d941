import Streams

/// The subscription of `hedge`, with its state in a ``HedgeStateMachine``.
///
/// Each attempt subscribes to the upstream through a ``HedgeAttempt`` that carries its number.
/// The delay before the next attempt is a repeating schedule cancelled when it first fires (the
/// form of `schedule` that returns a `Cancellable`), holding the subscription weakly. Losers,
/// the delay, the predicate, the budget, the breaker, the events and the downstream are all
/// called outside the lock; before each further call out after one that may run user code, the
/// machine is asked again whether the stream still wants it.
@usableFromInline
final class HedgeSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline
    typealias Resources = HedgeResources<Upstream, Context, Downstream>
    @usableFromInline
    typealias StateMachine = HedgeStateMachine<Upstream.Output, Upstream.Failure, Resources>

    @usableFromInline
    let state: LockedState<StateMachine>
    /// Whether the call may be sent again: read before each extra attempt; each attempt
    /// subscribes with it bound, so that a request not safe to repeat stops the hedging.
    @usableFromInline
    let safety: RepeatSafety

    @inlinable
    init(configuration: Publishers.Hedge<Upstream, Context>, downstream: Downstream) {
        safety = configuration.safety ?? RepeatSafety(true)
        state = LockedState(
            StateMachine(
                resources: Resources(configuration: configuration, downstream: downstream),
                maxAttempts: configuration.maxAttempts))
    }

    /// Makes the first attempt.
    @inlinable
    func start() {
        guard case .subscribe(let resources) = state.withLock({ $0.start() }) else { return }
        subscribe(attempt: 1, resources: resources)
    }

    /// Subscribes attempt `attempt`, then schedules the delay before the next one if it is
    /// still wanted.
    @inlinable
    func subscribe(attempt: Int, resources: Resources) {
        let configuration = resources.configuration
        safety.bound { configuration.upstream.receive(subscriber: HedgeAttempt(parent: self, number: attempt)) }
        guard case .arm = state.withLock({ $0.subscribeReturned(attempt: attempt) }) else { return }
        let scheduler = configuration.scheduler
        let interval: Context.SchedulerTimeType.Stride = ResilienceTime.stride(configuration.delay)
        let timer = scheduler.schedule(
            after: scheduler.now.advanced(by: interval), interval: max(interval, .nanoseconds(1)),
            tolerance: scheduler.minimumTolerance, options: nil
        ) { [weak self] in
            self?.delayElapsed(after: attempt)
        }
        if case .cancel(let timer) = state.withLock({ $0.armed(timer, after: attempt) }) { timer.cancel() }
    }

    /// No value came within the delay after attempt `attempt` started.
    @inlinable
    func delayElapsed(after attempt: Int) {
        guard case .gate(let resources, let next, let timer) = state.withLock({ $0.delayElapsed(after: attempt) })
        else { return }
        timer?.cancel()
        hedge(attempt: next, resources: resources, afterFailure: nil)
    }

    /// Makes attempt `attempt` if the call is safe to repeat, the breaker is closed and the
    /// budget pays for it; a refused attempt uses up its place.
    @inlinable
    func hedge(attempt: Int, resources: Resources, afterFailure: Upstream.Failure?) {
        let configuration = resources.configuration
        var cost = 0
        var admitted = safety.isSafe && (configuration.breaker.map { $0.currentState == .closed } ?? true)
        if admitted, let budget = configuration.budget {
            cost = budget.retryCost
            admitted = budget.withdraw(cost)
        }
        guard admitted else {
            if case .fail(let resources, let error, let remains) = state.withLock({ $0.hedgeRefused(attempt) }) {
                fail(resources, error, cancelling: remains)
            }
            return
        }
        guard case .subscribe(let resources) = state.withLock({ $0.hedgeAdmitted(attempt) }) else {
            configuration.budget?.refund(cost)
            return
        }
        if configuration.events.isObserved {
            configuration.events.emit(.hedgeStarted(attempt: attempt, afterFailure: afterFailure))
            guard case .subscribe = state.withLock({ $0.hedgeAdmitted(attempt) }) else {
                configuration.budget?.refund(cost)
                return
            }
        }
        subscribe(attempt: attempt, resources: resources)
    }

    /// Cancels what `remains` holds and delivers `error`.
    @inlinable
    func fail(_ resources: Resources, _ error: Upstream.Failure, cancelling remains: StateMachine.Remains) {
        cancel(remains)
        resources.downstream.receive(completion: .failure(error))
    }

    @inlinable
    func cancel(_ remains: StateMachine.Remains) {
        remains.timer?.cancel()
        for subscription in remains.subscriptions { subscription.cancel() }
    }

    // MARK: Attempts

    @inlinable
    func receive(subscription: any Subscription, attempt: Int) {
        switch state.withLock({ $0.receiveSubscription(subscription, attempt: attempt) }) {
        case .requestOne: subscription.request(.max(1))
        case .cancel: subscription.cancel()
        }
    }

    @inlinable
    func receive(_ input: Upstream.Output, attempt: Int) -> Subscribers.Demand {
        switch state.withLock({ $0.receiveValue(input, attempt: attempt) }) {
        case .deliver(let resources, let losers):
            if let losers {
                cancel(losers)
                resources.configuration.budget?.recordSuccess()
            }
            let additional = resources.downstream.receive(input)
            // The winner's own demand is returned to it rather than requested.
            switch state.withLock({ $0.delivered(additional) }) {
            case .request(_, let more): return more
            case .complete(let resources, let completion): resources.downstream.receive(completion: completion)
            case .none: break
            }
            return .none
        case .hold(let resources, let losers):
            cancel(losers)
            resources.configuration.budget?.recordSuccess()
            return .none
        case .none:
            return .none
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>, attempt: Int) {
        switch state.withLock({ $0.receiveCompletion(completion, attempt: attempt) }) {
        case .complete(let resources, let remains, let won):
            cancel(remains)
            if won { resources.configuration.budget?.recordSuccess() }
            resources.downstream.receive(completion: completion)
        case .judge(let resources):
            guard case .failure(let error) = completion else { return }
            let nonFatal = resources.configuration.isNonFatal(error)
            switch state.withLock({ $0.judged(error, nonFatal: nonFatal) }) {
            case .gate(let resources, let next, let timer):
                timer?.cancel()
                hedge(attempt: next, resources: resources, afterFailure: error)
            case .fail(let resources, let failure, let remains):
                fail(resources, failure, cancelling: remains)
            case .none:
                break
            }
        case .none:
            break
        }
    }

    // MARK: Subscription (the downstream's side)

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        switch state.withLock({ $0.request(demand) }) {
        case .deliverHeld(let resources, let value):
            let additional = resources.downstream.receive(value)
            switch state.withLock({ $0.delivered(additional) }) {
            case .request(let winner, let more): if more > 0 { winner.request(more) }
            case .complete(let resources, let completion): resources.downstream.receive(completion: completion)
            case .none: break
            }
        case .forward(let winner, let more):
            winner.request(more)
        case .none:
            break
        }
    }

    @inlinable
    func cancel() {
        // What the machine held is released here, outside the lock.
        guard case .cancel(let remains, _) = state.withLock({ $0.cancel() }) else { return }
        cancel(remains)
    }

    @usableFromInline
    var description: String { "Hedge" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
