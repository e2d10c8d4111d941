/// The state of a ``ResubscribingSubscription``: a value with no lock and no callouts. Each
/// event method updates it and returns what the subscription must do once the lock is released.
///
/// Phases, and the events that move between them:
/// - `idle`: `start` → `attempting(1)`.
/// - `attempting(n)`: a failure → `deciding(n)`; `.finished` → `terminated`.
/// - `deciding(n)`: give up → `terminated`; now → `attempting(n + 1)`; wait → `waiting(n)`.
/// - `waiting(n)`: the wait ends → `attempting(n + 1)`; it is abandoned → `terminated`.
///
/// `cancel` leads from every phase to `terminated`, which lets go of `Resources` (the upstream
/// publisher, the downstream and the policy). Attempts are numbered so that a wait that reports
/// after its attempt has moved on is recognised as stale. Whether a thread is inside the
/// upstream's `receive(subscriber:)` is tracked apart from the phase (``Loop``): a resubscription
/// decided meanwhile (a synchronous failure, a timer on an immediate scheduler, a synchronous
/// trigger) is left to that thread's loop instead of nesting a new subscribe call.
///
/// Cancellation: no lock is held while calling out, so a `cancel` cannot stop a call that
/// another thread has begun. Instead every call out is cleared by an event just before it
/// (``receivedCompletion(finished:)`` before the policy's decision, ``mayProceed(afterFailureOf:)``
/// between the policy's own calls, ``decided(_:)`` before the wait starts,
/// ``willSubscribe()``, ``subscribeReturned()``, ``start()`` and ``decided(_:)`` before each
/// subscription to the upstream), and none is cleared once `terminated`. What was cleared before
/// the cancel and arrives after it is refused: a subscription is cancelled
/// (``receivedSubscription(_:)``), a wait is cancelled (``waitStarted(_:attempt:)``), a decision
/// is dropped (``decided(_:)``).
///
/// The machine is not generic, and keeps the resources as `AnyObject` (the subscription knows
/// their type): an upstream calls the subscription through the `Subscriber` protocol, so its
/// code runs unspecialised, and there every use of a generic type costs a metadata lookup.
@usableFromInline
package struct ResubscribingStateMachine {
    @usableFromInline
    package typealias Resources = AnyObject

    @usableFromInline
    package enum Phase {
        /// Made; the upstream has not been subscribed yet.
        case idle
        /// Attempt `number` is subscribed, or about to be; `upstream` once its subscription has
        /// arrived. `succeeded` once it delivered a value or finished (for the budget).
        case attempting(number: Int, upstream: (any Subscription)?, succeeded: Bool)
        /// Attempt `number` failed; the policy is deciding, outside the lock.
        case deciding(number: Int)
        /// Waiting after attempt `number` failed; `wait` cancels the wait once known.
        case waiting(number: Int, wait: (any Cancellable)?)
        /// Finished, failed or cancelled: everything has been let go.
        case terminated
    }

    /// Whether a thread is inside the upstream's `receive(subscriber:)`.
    @usableFromInline
    package enum Loop {
        case idle
        case subscribing
        /// Subscribing, and the upstream must be subscribed once more when that call returns.
        case subscribingAgain
    }

    @usableFromInline
    package var phase = Phase.idle
    @usableFromInline
    package var loop = Loop.idle
    /// Requested by the downstream and not yet delivered.
    @usableFromInline
    package var demand = Subscribers.Demand.none
    @usableFromInline
    package var sentSubscription = false
    /// Held until terminated.
    @usableFromInline
    package var resources: Resources?

    @inlinable
    package init(resources: Resources) {
        self.resources = resources
    }

    /// Everything the machine let go of when it terminated, to be used or released outside the
    /// lock.
    @usableFromInline
    package struct Remains {
        @usableFromInline
        package let resources: Resources?
        @usableFromInline
        package let upstream: (any Subscription)?
        @usableFromInline
        package let wait: (any Cancellable)?

        @inlinable
        package init(resources: Resources?, upstream: (any Subscription)?, wait: (any Cancellable)?) {
            self.resources = resources
            self.upstream = upstream
            self.wait = wait
        }
    }

    /// Moves to `terminated`, handing out what was held.
    @inlinable
    package mutating func terminate() -> Remains {
        var upstream: (any Subscription)?
        var wait: (any Cancellable)?
        switch phase {
        case .attempting(_, let subscription, _): upstream = subscription
        case .waiting(_, let pending): wait = pending
        case .idle, .deciding, .terminated: break
        }
        phase = .terminated
        defer { resources = nil }
        return Remains(resources: resources, upstream: upstream, wait: wait)
    }

    /// Moves to attempt `number`: the resources to subscribe with, unless the thread already
    /// subscribing will do it.
    @inlinable
    package mutating func beginAttempt(_ number: Int) -> Resources? {
        phase = .attempting(number: number, upstream: nil, succeeded: false)
        switch loop {
        case .idle:
            loop = .subscribing
            return resources
        case .subscribing, .subscribingAgain:
            loop = .subscribingAgain
            return nil
        }
    }

    /// Whether the stream has terminated (completed or cancelled).
    @inlinable
    package var isTerminated: Bool {
        if case .terminated = phase { return true }
        return false
    }

    // MARK: Events

    /// The first attempt: the resources to subscribe with.
    @inlinable
    package mutating func start() -> Resources? {
        switch phase {
        case .idle:
            return beginAttempt(1)
        case .terminated:
            return nil
        case .attempting, .deciding, .waiting:
            preconditionFailure("ResubscribingStateMachine: internal inconsistency: started twice")
        }
    }

    /// The upstream's `receive(subscriber:)` returned: the resources to subscribe with again, if
    /// a new attempt came due meanwhile.
    @inlinable
    package mutating func subscribeReturned() -> Resources? {
        switch loop {
        case .subscribingAgain:
            if case .terminated = phase {
                loop = .idle
                return nil
            }
            loop = .subscribing
            return resources
        case .subscribing:
            loop = .idle
            return nil
        case .idle:
            preconditionFailure(
                "ResubscribingStateMachine: internal inconsistency: a subscribe call returned that was never made")
        }
    }

    @usableFromInline
    package enum SubscriptionAction {
        case cancel
        /// Hand the subscription to the downstream (first attempt), then request `demand` upstream.
        case handOver(Resources, request: Subscribers.Demand)
        case request(Subscribers.Demand)
    }

    /// An upstream subscription arrived.
    @inlinable
    package mutating func receivedSubscription(_ subscription: any Subscription) -> SubscriptionAction {
        guard case .attempting(let number, nil, let succeeded) = phase, let resources else { return .cancel }
        phase = .attempting(number: number, upstream: subscription, succeeded: succeeded)
        if sentSubscription { return .request(demand) }
        sentSubscription = true
        return .handOver(resources, request: demand)
    }

    @usableFromInline
    package enum ValueAction {
        case ignore
        /// Nothing is outstanding: trap, as Combine does.
        case withoutDemand
        /// Deliver the value; `firstSuccess` if it is the attempt's first.
        case deliver(Resources, firstSuccess: Bool)
    }

    /// The upstream sent a value.
    @inlinable
    package mutating func receivedValue() -> ValueAction {
        switch phase {
        case .attempting(let number, let upstream, let succeeded):
            guard demand > 0 else { return .withoutDemand }
            guard let resources else {
                preconditionFailure("ResubscribingStateMachine: internal inconsistency: an attempt ran without resources")
            }
            demand -= 1
            if succeeded { return .deliver(resources, firstSuccess: false) }
            phase = .attempting(number: number, upstream: upstream, succeeded: true)
            return .deliver(resources, firstSuccess: true)
        case .idle:
            return .withoutDemand
        case .deciding, .waiting, .terminated:
            // The attempt has already ended (an upstream breaking the contract), or we have.
            return .ignore
        }
    }

    /// The downstream returned `additional` for a value: the subscription to request it from.
    @inlinable
    package mutating func deliveredValue(_ additional: Subscribers.Demand) -> (any Subscription)? {
        request(additional)
    }

    @usableFromInline
    package enum CompletionAction {
        case ignore
        /// Deliver `.finished`; `firstSuccess` if the attempt had not delivered a value.
        case finish(Remains, firstSuccess: Bool)
        /// Ask the policy about the failure of attempt `attempt`, then report with
        /// ``decided(_:)``. `failed` is that attempt's subscription, released.
        case decide(Resources, attempt: Int, failed: (any Subscription)?)
    }

    /// The upstream completed; `finished` unless it failed.
    @inlinable
    package mutating func receivedCompletion(finished: Bool) -> CompletionAction {
        guard case .attempting(let number, let upstream, let succeeded) = phase else { return .ignore }
        if finished { return .finish(terminate(), firstSuccess: !succeeded) }
        guard let resources else {
            preconditionFailure("ResubscribingStateMachine: internal inconsistency: an attempt ran without resources")
        }
        phase = .deciding(number: number)
        return .decide(resources, attempt: number, failed: upstream)
    }

    @usableFromInline
    package enum ProceedAction {
        case proceed
        /// Cancelled: call nothing more.
        case cancelled
    }

    /// The policy is about to call out again while deciding about, or starting the wait after,
    /// the failure of attempt `attempt`.
    @inlinable
    package mutating func mayProceed(afterFailureOf attempt: Int) -> ProceedAction {
        switch phase {
        case .deciding(attempt), .waiting(attempt, nil):
            return .proceed
        case .terminated:
            return .cancelled
        case .idle, .attempting, .deciding, .waiting:
            preconditionFailure("ResubscribingStateMachine: internal inconsistency: a policy went on after its turn")
        }
    }

    @usableFromInline
    package enum DecidedAction {
        /// The subscribing thread will subscribe again.
        case nothing
        /// Cancelled while deciding: the decision is dropped.
        case cancelled
        /// Deliver the failure.
        case finish(Remains)
        case subscribe(Resources)
        /// Start the policy's wait after attempt `attempt`.
        case startWait(Resources, attempt: Int, delay: Duration)
    }

    /// The policy decided about the failure being decided on.
    @inlinable
    package mutating func decided(_ decision: ResubscribeDecision) -> DecidedAction {
        guard case .deciding(let number) = phase else {
            guard case .terminated = phase else {
                preconditionFailure("ResubscribingStateMachine: internal inconsistency: a decision arrived with none in progress")
            }
            return .cancelled
        }
        switch decision {
        case .giveUp, .stop:
            return .finish(terminate())
        case .now:
            return beginAttempt(number + 1).map(DecidedAction.subscribe) ?? .nothing
        case .wait(let delay):
            guard let resources else {
                preconditionFailure("ResubscribingStateMachine: internal inconsistency: deciding without resources")
            }
            phase = .waiting(number: number, wait: nil)
            return .startWait(resources, attempt: number, delay: delay)
        }
    }

    /// What cancels the wait after `attempt` is known: false when it is no longer wanted.
    @inlinable
    package mutating func waitStarted(_ wait: any Cancellable, attempt: Int) -> Bool {
        guard case .waiting(attempt, nil) = phase else { return false }
        phase = .waiting(number: attempt, wait: wait)
        return true
    }

    @usableFromInline
    package enum WaitEndedAction {
        case ignore
        /// Cancel `wait` (it may repeat), then, if `subscribes`, report ``willSubscribe()`` and
        /// subscribe.
        case resubscribe(wait: (any Cancellable)?, subscribes: Bool)
    }

    /// The wait after `attempt` is over.
    @inlinable
    package mutating func waitEnded(attempt: Int) -> WaitEndedAction {
        guard case .waiting(attempt, let wait) = phase else { return .ignore }
        return .resubscribe(wait: wait, subscribes: beginAttempt(attempt + 1) != nil)
    }

    @usableFromInline
    package enum SubscribeAction {
        case subscribe(Resources)
        /// Cancelled since the attempt began: subscribe to nothing.
        case cancelled
    }

    /// The thread whose turn it is to subscribe (``waitEnded(attempt:)`` said so) is about to.
    @inlinable
    package mutating func willSubscribe() -> SubscribeAction {
        guard case .attempting(_, nil, _) = phase, let resources else {
            guard case .terminated = phase else {
                preconditionFailure(
                    "ResubscribingStateMachine: internal inconsistency: an attempt moved on before it was subscribed")
            }
            loop = .idle
            return .cancelled
        }
        return .subscribe(resources)
    }

    /// The wait after `attempt` ended without its signal: give up.
    @inlinable
    package mutating func waitAbandoned(attempt: Int) -> Remains? {
        guard case .waiting(attempt, _) = phase else { return nil }
        return terminate()
    }

    /// The downstream requested `demand` (`.none` is accepted): the subscription to forward it to.
    @inlinable
    package mutating func request(_ demand: Subscribers.Demand) -> (any Subscription)? {
        if case .terminated = phase { return nil }
        self.demand += demand
        guard case .attempting(_, let upstream, _) = phase else { return nil }
        return upstream
    }

    /// The downstream cancelled: what to cancel and release, unless already terminated.
    @inlinable
    package mutating func cancel() -> Remains? {
        if case .terminated = phase { return nil }
        return terminate()
    }
}
