/// The state of a ``ResubscribingSubscription``: a value with no lock and no callouts. Each
/// event method updates it and returns what the subscription must do once the lock is released.
///
/// Phases, and the events that move between them:
/// - `idle`: `start` → `attempting(1)`.
/// - `attempting(n)`: a failure → `deciding(n)`; `.finished` → `terminated`.
/// - `deciding(n)`: give up → `terminated`; now → `attempting(n + 1)`; wait → `waiting(n)`.
/// - `waiting(n)`: the wait ends → `attempting(n + 1)`; it is abandoned → `terminated`.
///
/// `cancel` leads from every phase to `terminated`. Attempts are numbered so that a wait that
/// reports after its attempt has moved on is recognised as stale. Whether a thread is inside the
/// upstream's `receive(subscriber:)` is tracked apart from the phase (``Loop``): a resubscription
/// decided meanwhile (a synchronous failure, a timer on an immediate scheduler, a synchronous
/// trigger) is left to that thread's loop instead of nesting a new subscribe call.
@usableFromInline
struct ResubscribingStateMachine<Upstream: Publisher, Downstream: Subscriber, Policy: ResubscribePolicy>
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure, Policy.Failure == Upstream.Failure {
    @usableFromInline
    typealias Failure = Upstream.Failure

    @usableFromInline
    enum Phase {
        /// Made; the upstream has not been subscribed yet.
        case idle
        /// Attempt `number` is subscribed, or about to be; `upstream` once its subscription has
        /// arrived. `succeeded` once it delivered a value or finished (for the budget).
        case attempting(number: Int, upstream: (any Subscription)?, succeeded: Bool)
        /// Attempt `number` failed; the policy is deciding, outside the lock.
        case deciding(number: Int)
        /// Waiting after attempt `number` failed with `error`; `wait` cancels the wait once known.
        case waiting(number: Int, error: Failure, wait: (any Cancellable)?)
        /// Finished, failed or cancelled: everything has been let go.
        case terminated
    }

    /// Whether a thread is inside the upstream's `receive(subscriber:)`.
    @usableFromInline
    enum Loop {
        case idle
        case subscribing
        /// Subscribing, and the upstream must be subscribed once more when that call returns.
        case subscribingAgain
    }

    @usableFromInline
    var phase = Phase.idle
    @usableFromInline
    var loop = Loop.idle
    /// Requested by the downstream and not yet delivered.
    @usableFromInline
    var demand = Subscribers.Demand.none
    @usableFromInline
    var sentSubscription = false
    // Held until terminated; `policy` is also out while a decision is in progress.
    @usableFromInline
    var downstream: Downstream?
    @usableFromInline
    var upstreamPublisher: Upstream?
    @usableFromInline
    var policy: Policy?

    @inlinable
    init(upstream: Upstream, policy: Policy, downstream: Downstream) {
        upstreamPublisher = upstream
        self.policy = policy
        self.downstream = downstream
    }

    /// Everything the machine let go of when it terminated, to be used or released outside the
    /// lock.
    @usableFromInline
    struct Remains {
        @usableFromInline
        let downstream: Downstream?
        @usableFromInline
        let upstream: (any Subscription)?
        @usableFromInline
        let wait: (any Cancellable)?
        @usableFromInline
        let released: (Upstream?, Policy?)

        @inlinable
        init(downstream: Downstream?, upstream: (any Subscription)?, wait: (any Cancellable)?, released: (Upstream?, Policy?)) {
            self.downstream = downstream
            self.upstream = upstream
            self.wait = wait
            self.released = released
        }
    }

    /// Moves to `terminated`, handing out what was held.
    @inlinable
    mutating func terminate() -> Remains {
        var upstream: (any Subscription)?
        var wait: (any Cancellable)?
        switch phase {
        case .attempting(_, let subscription, _): upstream = subscription
        case .waiting(_, _, let pending): wait = pending
        case .idle, .deciding, .terminated: break
        }
        phase = .terminated
        defer {
            downstream = nil
            upstreamPublisher = nil
            policy = nil
        }
        return Remains(downstream: downstream, upstream: upstream, wait: wait, released: (upstreamPublisher, policy))
    }

    /// Moves to attempt `number` and returns the publisher to subscribe to, unless the thread
    /// already subscribing will do it.
    @inlinable
    mutating func beginAttempt(_ number: Int) -> Upstream? {
        phase = .attempting(number: number, upstream: nil, succeeded: false)
        switch loop {
        case .idle:
            loop = .subscribing
            return upstreamPublisher
        case .subscribing, .subscribingAgain:
            loop = .subscribingAgain
            return nil
        }
    }

    // MARK: Events

    /// The first attempt: returns the publisher to subscribe to.
    @inlinable
    mutating func start() -> Upstream? {
        switch phase {
        case .idle:
            return beginAttempt(1)
        case .terminated:
            return nil
        case .attempting, .deciding, .waiting:
            preconditionFailure("\(Policy.name): internal inconsistency: started twice")
        }
    }

    /// The upstream's `receive(subscriber:)` returned: the publisher to subscribe to again, if a
    /// new attempt came due meanwhile.
    @inlinable
    mutating func subscribeReturned() -> Upstream? {
        switch loop {
        case .subscribingAgain:
            loop = .subscribing
            if case .terminated = phase {
                loop = .idle
                return nil
            }
            return upstreamPublisher
        case .subscribing:
            loop = .idle
            return nil
        case .idle:
            preconditionFailure("\(Policy.name): internal inconsistency: a subscribe call returned that was never made")
        }
    }

    @usableFromInline
    enum SubscriptionAction {
        case cancel
        /// Hand the subscription to the downstream (first attempt), then request `demand` upstream.
        case handOver(Downstream, request: Subscribers.Demand)
        case request(Subscribers.Demand)
    }

    /// An upstream subscription arrived.
    @inlinable
    mutating func receivedSubscription(_ subscription: any Subscription) -> SubscriptionAction {
        guard case .attempting(let number, nil, let succeeded) = phase, let downstream else { return .cancel }
        phase = .attempting(number: number, upstream: subscription, succeeded: succeeded)
        if sentSubscription { return .request(demand) }
        sentSubscription = true
        return .handOver(downstream, request: demand)
    }

    @usableFromInline
    enum ValueAction {
        case ignore
        /// Deliver the value, after refilling `budget` (the attempt's first success).
        case deliver(Downstream, refill: RetryBudget?)
    }

    /// The upstream sent a value. Traps when nothing is outstanding, as Combine does.
    @inlinable
    mutating func receivedValue() -> ValueAction {
        switch phase {
        case .attempting(let number, let upstream, let succeeded):
            precondition(demand > 0, "\(Policy.name) received a value without demand")
            demand -= 1
            guard !succeeded, let budget = policy?.budget else { return .deliver(downstream!, refill: nil) }
            phase = .attempting(number: number, upstream: upstream, succeeded: true)
            return .deliver(downstream!, refill: budget)
        case .idle:
            preconditionFailure("\(Policy.name) received a value without demand")
        case .deciding, .waiting, .terminated:
            // The attempt has already ended (an upstream breaking the contract), or we have.
            return .ignore
        }
    }

    /// The downstream returned `additional` for a value: the subscription to request it from.
    @inlinable
    mutating func deliveredValue(_ additional: Subscribers.Demand) -> (any Subscription)? {
        if case .terminated = phase { return nil }
        demand += additional
        guard case .attempting(_, let upstream, _) = phase else { return nil }
        return upstream
    }

    @usableFromInline
    enum CompletionAction {
        case ignore
        /// Deliver the completion, after refilling `refill`.
        case finish(Remains, refill: RetryBudget?)
        /// Ask `policy` about `error`, then report with ``decided(_:_:error:)``. `failed` is the
        /// failed attempt's subscription, released.
        case decide(Policy, error: Failure, failed: (any Subscription)?)
    }

    /// The upstream completed.
    @inlinable
    mutating func receivedCompletion(_ completion: Subscribers.Completion<Failure>) -> CompletionAction {
        guard case .attempting(let number, let upstream, let succeeded) = phase else { return .ignore }
        guard case .failure(let error) = completion else {
            let refill = succeeded ? nil : policy?.budget
            return .finish(terminate(), refill: refill)
        }
        guard let policy else {
            preconditionFailure("\(Policy.name): internal inconsistency: an attempt ran without its policy")
        }
        self.policy = nil
        phase = .deciding(number: number)
        return .decide(policy, error: error, failed: upstream)
    }

    @usableFromInline
    enum DecidedAction {
        /// Cancelled meanwhile: drop the policy.
        case discard(Policy)
        case nothing
        case finish(Remains)
        case subscribe(Upstream)
        /// Start the wait after attempt `attempt`.
        case startWait(Policy.Wait, attempt: Int)
    }

    /// The policy decided about the failure `error`; `policy` is the decided-on policy, back.
    @inlinable
    mutating func decided(_ policy: Policy, _ decision: ResubscribeDecision<Policy.Wait>, error: Failure) -> DecidedAction {
        guard case .deciding(let number) = phase else {
            guard case .terminated = phase else {
                preconditionFailure("\(Policy.name): internal inconsistency: a decision arrived with none in progress")
            }
            return .discard(policy)
        }
        self.policy = policy
        switch decision {
        case .giveUp:
            return .finish(terminate())
        case .now:
            return beginAttempt(number + 1).map(DecidedAction.subscribe) ?? .nothing
        case .wait(let wait):
            phase = .waiting(number: number, error: error, wait: nil)
            return .startWait(wait, attempt: number)
        }
    }

    /// What cancels the wait after `attempt` is known: false when it is no longer wanted.
    @inlinable
    mutating func waitStarted(_ wait: any Cancellable, attempt: Int) -> Bool {
        guard case .waiting(attempt, let error, nil) = phase else { return false }
        phase = .waiting(number: attempt, error: error, wait: wait)
        return true
    }

    @usableFromInline
    enum WaitEndedAction {
        case ignore
        /// Cancel `wait` (it may repeat), then subscribe to `upstream` if given.
        case resubscribe(wait: (any Cancellable)?, upstream: Upstream?)
    }

    /// The wait after `attempt` is over.
    @inlinable
    mutating func waitEnded(attempt: Int) -> WaitEndedAction {
        guard case .waiting(attempt, _, let wait) = phase else { return .ignore }
        return .resubscribe(wait: wait, upstream: beginAttempt(attempt + 1))
    }

    /// The wait after `attempt` ended without its signal: the failure to deliver, with the
    /// remains.
    @inlinable
    mutating func waitAbandoned(attempt: Int) -> (Failure, Remains)? {
        guard case .waiting(attempt, let error, _) = phase else { return nil }
        return (error, terminate())
    }

    /// The downstream requested `demand`: the subscription to forward it to.
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> (any Subscription)? {
        if case .terminated = phase { return nil }
        self.demand += demand
        guard case .attempting(_, let upstream, _) = phase else { return nil }
        return upstream
    }

    /// The downstream cancelled: what to cancel and release, unless already terminated.
    @inlinable
    mutating func cancel() -> Remains? {
        if case .terminated = phase { return nil }
        return terminate()
    }
}
