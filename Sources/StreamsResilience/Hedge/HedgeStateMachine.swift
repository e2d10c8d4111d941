import Streams

/// The state of a `hedge` subscription: a value with no lock and no callouts. Each event updates
/// it and returns what the subscription must do once the lock is released.
///
/// Phases:
/// - `awaitingSubscription(resources)`: made; the first attempt is not subscribed yet. `start` →
///   `subscribed`.
/// - `subscribed(resources)`: the race, then the winner. While no attempt has sent anything,
///   every running attempt is asked for one value; when its delay passes (``delayElapsed(after:)``)
///   or an attempt fails with a non-fatal error (``judged(_:nonFatal:)``) another attempt is
///   reserved, up to `maxAttempts`, and made if the budget and the breaker allow it
///   (``hedgeAdmitted(_:)``, ``hedgeRefused(_:)``). The first attempt to send a value or to
///   finish wins: the others and the pending delay are cancelled at once, and from then on the
///   winner's values go downstream and the downstream's demand goes to the winner. The winner's
///   first value waits in `held` while there is no demand for it. A fatal failure ends the
///   stream with it (cancelling the others); when every attempt has failed and no more can be
///   made, the last failure is delivered.
/// - `completing(resources, completion)`: the winner finished while a value was held or being
///   delivered; the completion follows it.
/// - `terminated`: completed or cancelled; everything has been let go, and whatever arrives is
///   ignored.
///
/// Attempts are numbered from 1, so that the report of an attempt that has lost, or of a delay
/// that a newer attempt has overtaken, is recognised and ignored.
@usableFromInline
struct HedgeStateMachine<Output, Failure: Error, Resources: AnyObject> {
    @usableFromInline
    typealias Completion = Subscribers.Completion<Failure>

    @usableFromInline
    enum Phase {
        case awaitingSubscription(Resources)
        case subscribed(Resources)
        case completing(Resources, Completion)
        case terminated
    }

    /// A racing attempt: its number and, once it has arrived, its subscription.
    @usableFromInline
    struct Contender {
        @usableFromInline
        let number: Int
        @usableFromInline
        var subscription: (any Subscription)?

        @inlinable
        init(number: Int) {
            self.number = number
        }
    }

    @usableFromInline
    var phase: Phase
    @usableFromInline
    let maxAttempts: Int
    /// Attempts reserved so far (made, being admitted, or refused).
    @usableFromInline
    var started = 0
    /// The racing attempts that have not ended, while there is no winner.
    @usableFromInline
    var contenders: [Contender] = []
    /// The winner's number and subscription, once an attempt has sent a value.
    @usableFromInline
    var winner: Int?
    @usableFromInline
    var winnerSubscription: (any Subscription)?
    /// The pending delay before the next attempt, once armed.
    @usableFromInline
    var timer: (any Cancellable)?
    /// Failures being judged (non-fatal or not) outside the lock.
    @usableFromInline
    var judging = 0
    /// The failure that arrived last, delivered when every attempt has failed.
    @usableFromInline
    var lastFailure: Failure?
    /// Requested by the downstream and not yet delivered.
    @usableFromInline
    var demand = Subscribers.Demand.none
    /// Asked of the winner and not yet sent by it.
    @usableFromInline
    var asked = Subscribers.Demand.none
    /// The winner's first value, while there is no demand for it.
    @usableFromInline
    var held: Output?
    /// Whether a value is on its way downstream (outside the lock).
    @usableFromInline
    var delivering = false

    @inlinable
    init(resources: Resources, maxAttempts: Int) {
        phase = .awaitingSubscription(resources)
        self.maxAttempts = maxAttempts
    }

    /// Whether attempt `number` is racing (no winner yet, not ended).
    @inlinable
    func isRacing(_ number: Int) -> Bool {
        guard case .subscribed = phase, winner == nil else { return false }
        return contenders.contains { $0.number == number }
    }

    /// Reserves the next attempt.
    @inlinable
    mutating func reserve() -> Int {
        started += 1
        contenders.append(Contender(number: started))
        return started
    }

    /// Moves to `terminated`, handing out the subscriptions and the delay to cancel.
    @inlinable
    mutating func terminate() -> Remains {
        let live = contenders.compactMap(\.subscription) + (winnerSubscription.map { [$0] } ?? [])
        let pendingTimer = timer
        phase = .terminated
        contenders = []
        winnerSubscription = nil
        timer = nil
        held = nil
        lastFailure = nil
        return Remains(subscriptions: live, timer: pendingTimer)
    }

    /// What to cancel when the stream ends or an attempt wins.
    @usableFromInline
    struct Remains {
        @usableFromInline
        let subscriptions: [any Subscription]
        @usableFromInline
        let timer: (any Cancellable)?

        @inlinable
        init(subscriptions: [any Subscription], timer: (any Cancellable)?) {
            self.subscriptions = subscriptions
            self.timer = timer
        }
    }

    // MARK: Attempts

    @usableFromInline
    enum StartAction {
        /// Subscribe attempt 1.
        case subscribe(Resources)
        case none
    }

    @inlinable
    mutating func start() -> StartAction {
        guard case .awaitingSubscription(let resources) = phase else { return .none }
        phase = .subscribed(resources)
        _ = reserve()
        return .subscribe(resources)
    }

    @usableFromInline
    enum SubscriptionAction {
        /// Ask it for one value, to race with.
        case requestOne
        case cancel
    }

    @inlinable
    mutating func receiveSubscription(_ subscription: any Subscription, attempt: Int) -> SubscriptionAction {
        guard case .subscribed = phase, winner == nil,
            let index = contenders.firstIndex(where: { $0.number == attempt }),
            contenders[index].subscription == nil
        else { return .cancel }
        contenders[index].subscription = subscription
        return .requestOne
    }

    @usableFromInline
    enum ArmAction {
        /// Schedule the delay before the next attempt.
        case arm(Resources)
        case none
    }

    /// The upstream's `receive(subscriber:)` for attempt `attempt` returned.
    @inlinable
    func subscribeReturned(attempt: Int) -> ArmAction {
        guard case .subscribed(let resources) = phase, winner == nil, started == attempt, attempt < maxAttempts,
            timer == nil
        else { return .none }
        return .arm(resources)
    }

    @usableFromInline
    enum ArmedAction {
        case keep
        /// The delay is no longer wanted: cancel it.
        case cancel(any Cancellable)
    }

    /// The delay after attempt `attempt` is scheduled.
    @inlinable
    mutating func armed(_ delay: any Cancellable, after attempt: Int) -> ArmedAction {
        guard case .subscribed = phase, winner == nil, started == attempt, timer == nil else { return .cancel(delay) }
        timer = delay
        return .keep
    }

    @usableFromInline
    enum HedgeAction {
        /// Ask the budget and the breaker for attempt `attempt`, after cancelling `timer`.
        case gate(Resources, attempt: Int, timer: (any Cancellable)?)
        case none
    }

    /// The delay after attempt `attempt` has passed with no value.
    @inlinable
    mutating func delayElapsed(after attempt: Int) -> HedgeAction {
        guard case .subscribed(let resources) = phase, winner == nil, started == attempt, attempt < maxAttempts else {
            return .none
        }
        defer { timer = nil }
        return .gate(resources, attempt: reserve(), timer: timer)
    }

    @usableFromInline
    enum AdmitAction {
        case subscribe(Resources)
        /// The attempt is no longer wanted (a winner, a cancel): give the budget back.
        case refund
    }

    /// The budget and the breaker let attempt `attempt` be made.
    @inlinable
    func hedgeAdmitted(_ attempt: Int) -> AdmitAction {
        guard case .subscribed(let resources) = phase, isRacing(attempt) else { return .refund }
        return .subscribe(resources)
    }

    @usableFromInline
    enum FailAction {
        /// Deliver `error`, after cancelling what `remains` holds.
        case fail(Resources, Failure, Remains)
        case none
    }

    /// The budget or the breaker refused attempt `attempt`.
    @inlinable
    mutating func hedgeRefused(_ attempt: Int) -> FailAction {
        guard case .subscribed = phase, winner == nil else { return .none }
        contenders.removeAll { $0.number == attempt }
        return failIfExhausted()
    }

    /// Every attempt has failed and none is being judged: the last failure is delivered. (A
    /// refused hedge uses up its place.)
    @inlinable
    mutating func failIfExhausted() -> FailAction {
        guard case .subscribed(let resources) = phase, winner == nil, contenders.isEmpty, judging == 0,
            let failure = lastFailure
        else { return .none }
        return .fail(resources, failure, terminate())
    }

    // MARK: Values and completions

    @usableFromInline
    enum ValueAction {
        /// Deliver the value (after cancelling `losers` when it wins), then report with
        /// ``delivered(_:)``. `won`: the value decided the race.
        case deliver(Resources, losers: Remains?)
        /// The winner's first value is held for demand; cancel `losers`.
        case hold(Resources, losers: Remains)
        case none
    }

    @inlinable
    mutating func receiveValue(_ value: Output, attempt: Int) -> ValueAction {
        switch phase {
        case .subscribed(let resources) where winner == nil:
            guard let index = contenders.firstIndex(where: { $0.number == attempt }) else { return .none }
            let subscription = contenders.remove(at: index).subscription
            let losers = Remains(subscriptions: contenders.compactMap(\.subscription), timer: timer)
            contenders = []
            timer = nil
            lastFailure = nil
            winner = attempt
            winnerSubscription = subscription
            asked = .none
            guard demand > 0 else {
                held = value
                return .hold(resources, losers: losers)
            }
            demand -= 1
            delivering = true
            return .deliver(resources, losers: losers)
        case .subscribed(let resources) where winner == attempt && demand > 0:
            demand -= 1
            if asked != .unlimited, asked > 0 { asked -= 1 }
            delivering = true
            return .deliver(resources, losers: nil)
        case .awaitingSubscription, .subscribed, .completing, .terminated:
            return .none
        }
    }

    @usableFromInline
    enum DeliveredAction {
        /// Ask the winner for this much more (nothing if `.none`).
        case request(any Subscription, Subscribers.Demand)
        /// Send this completion downstream.
        case complete(Resources, Completion)
        case none
    }

    /// A value was delivered and the downstream asked for `additional` more.
    @inlinable
    mutating func delivered(_ additional: Subscribers.Demand) -> DeliveredAction {
        delivering = false
        switch phase {
        case .subscribed:
            demand += additional
            return topUp()
        case .completing(let resources, let completion):
            _ = terminate()
            return .complete(resources, completion)
        case .awaitingSubscription, .terminated:
            return .none
        }
    }

    /// What to ask the winner so that it has been asked for all the downstream's demand.
    @inlinable
    mutating func topUp() -> DeliveredAction {
        guard held == nil, let subscription = winnerSubscription else { return .none }
        let more: Subscribers.Demand
        if demand == .unlimited {
            more = asked == .unlimited ? .none : .unlimited
        } else if demand > asked {
            more = .max(demand.max! - asked.max!)
        } else {
            more = .none
        }
        asked += more
        return .request(subscription, more)
    }

    @usableFromInline
    enum CompletionAction {
        /// Send it downstream, after cancelling what `remains` holds; `won`: an attempt that
        /// finished without a value won the race.
        case complete(Resources, Remains, won: Bool)
        /// Ask whether the failure is non-fatal, then report with ``judged(_:nonFatal:)``.
        case judge(Resources)
        case none
    }

    @inlinable
    mutating func receiveCompletion(_ completion: Completion, attempt: Int) -> CompletionAction {
        guard case .subscribed(let resources) = phase else { return .none }
        if let winner {
            guard winner == attempt else { return .none }
            if case .finished = completion, held != nil || delivering {
                phase = .completing(resources, completion)
                return .none
            }
            winnerSubscription = nil  // it has completed: nothing to cancel
            return .complete(resources, terminate(), won: false)
        }
        guard let index = contenders.firstIndex(where: { $0.number == attempt }) else { return .none }
        switch completion {
        case .finished:
            contenders.remove(at: index)
            return .complete(resources, terminate(), won: true)
        case .failure(let error):
            contenders.remove(at: index)
            lastFailure = error
            judging += 1
            return .judge(resources)
        }
    }

    @usableFromInline
    enum JudgedAction {
        /// Make another attempt at once: ask the budget and the breaker for attempt `attempt`,
        /// after cancelling `timer` (the delay of the attempt before).
        case gate(Resources, attempt: Int, timer: (any Cancellable)?)
        /// Deliver `error`, after cancelling what `remains` holds.
        case fail(Resources, Failure, Remains)
        case none
    }

    /// `error` was judged: a fatal one ends the stream, a non-fatal one starts the next attempt
    /// at once, if one is left.
    @inlinable
    mutating func judged(_ error: Failure, nonFatal: Bool) -> JudgedAction {
        guard case .subscribed(let resources) = phase, winner == nil else { return .none }
        judging -= 1
        guard nonFatal else { return .fail(resources, error, terminate()) }
        if started < maxAttempts {
            defer { timer = nil }
            return .gate(resources, attempt: reserve(), timer: timer)
        }
        switch failIfExhausted() {
        case .fail(let resources, let failure, let remains): return .fail(resources, failure, remains)
        case .none: return .none
        }
    }

    // MARK: Downstream

    @usableFromInline
    enum RequestAction {
        /// Deliver the held value, then report with ``delivered(_:)``.
        case deliverHeld(Resources, Output)
        /// Ask the winner for this much more.
        case forward(any Subscription, Subscribers.Demand)
        case none
    }

    @inlinable
    mutating func request(_ additional: Subscribers.Demand) -> RequestAction {
        switch phase {
        case .awaitingSubscription:
            demand += additional
            return .none
        case .subscribed(let resources):
            demand += additional
            guard winner != nil else { return .none }
            if let value = takeHeld() { return .deliverHeld(resources, value) }
            guard case .request(let subscription, let more) = topUp(), more > 0 else { return .none }
            return .forward(subscription, more)
        case .completing(let resources, _):
            demand += additional
            if let value = takeHeld() { return .deliverHeld(resources, value) }
            return .none
        case .terminated:
            return .none
        }
    }

    /// The held value, taken out for delivery, when nothing else is being delivered.
    @inlinable
    mutating func takeHeld() -> Output? {
        guard let value = held, !delivering, demand > 0 else { return nil }
        held = nil
        demand -= 1
        delivering = true
        return value
    }

    @usableFromInline
    enum CancelAction {
        /// Cancel what `remains` holds; the resources are let go of outside the lock.
        case cancel(Remains, released: Resources?)
        case none
    }

    @inlinable
    mutating func cancel() -> CancelAction {
        let released: Resources?
        switch phase {
        case .awaitingSubscription(let resources), .subscribed(let resources), .completing(let resources, _):
            released = resources
        case .terminated:
            return .none
        }
        return .cancel(terminate(), released: released)
    }
}
