import Streams

/// The state of an `amb` subscription: a value with no lock and no callouts. Each event updates
/// it and returns what the subscription must do once the lock is released.
///
/// Phases:
/// - `awaitingSubscription(downstream)`: the race; no contender has sent anything. Each one's
///   subscription is kept (at the contender's index) and asked for one value. The first value
///   or completion decides: the losers are cancelled, and a value → `subscribed(winner)`, a
///   completion → `terminated`.
/// - `subscribed(downstream, winner)`: the winner's values go downstream; the downstream's
///   demand goes to the winner. The winner's first value waits in `held` while there is no
///   demand for it.
/// - `completing(downstream, completion)`: the winner finished while a value was held or being
///   delivered, and the completion follows it; or the race ended before the downstream had its
///   subscription, and the completion waits for ``handedOver()``.
/// - `terminated`: completed or cancelled; everything has been let go and is ignored.
///
/// A failure of the winner ends it at once (a held value is dropped), as does `cancel()`.
///
/// The contenders are subscribed before the downstream is handed its subscription (CombineExt's
/// order), so the race may start, and even end, first: until ``handingOver()`` a value is held
/// (there can be no demand yet) and a completion waits in `completing`.
///
/// The contenders are numbered from 0 (two for `amb(_:)`, any number for `Collection.amb()`).
/// Every event costs the same whatever their number, except the one that decides the race and
/// `cancel()`, which go over them once to cancel the losers.
@usableFromInline
struct AmbStateMachine<Downstream: Subscriber> {
    @usableFromInline
    typealias Output = Downstream.Input
    @usableFromInline
    typealias Completion = Subscribers.Completion<Downstream.Failure>

    @usableFromInline
    enum Phase {
        case awaitingSubscription(Box<Downstream>)
        case subscribed(Box<Downstream>, winner: Int)
        case completing(Box<Downstream>, Completion)
        case terminated
    }

    @usableFromInline
    var phase: Phase
    /// Each contender's subscription, by index, while it may still be needed: all of them
    /// during the race, the winner's only afterwards.
    @usableFromInline
    var contenders: [(any Subscription)?]
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
    /// Whether the downstream has been handed its subscription (set just before the call).
    @usableFromInline
    var downstreamSubscribed = false

    @inlinable
    init(downstream: Downstream, contenders count: Int) {
        phase = .awaitingSubscription(Box(downstream))
        contenders = Array(repeating: nil, count: count)
    }

    // MARK: Contenders

    /// A contender's subscription: kept and asked for one value, to race with; or cancelled.
    @inlinable
    mutating func receiveSubscription(_ subscription: any Subscription, from side: Int) -> SubscriptionArrival {
        guard case .awaitingSubscription = phase, contenders[side] == nil else { return .cancel }
        contenders[side] = subscription
        return .request(.max(1))
    }

    @usableFromInline
    enum ValueAction {
        /// Send the value to this downstream (cancelling the losers first), then report with
        /// ``delivered(_:)``.
        case deliver(Box<Downstream>, cancelling: [any Subscription])
        /// The value is held for demand; cancel the losers.
        case hold(cancelling: [any Subscription])
        case none
    }

    @inlinable
    mutating func receiveValue(_ value: Output, from side: Int) -> ValueAction {
        switch phase {
        case .awaitingSubscription(let downstream):
            let loser = decide(side)
            phase = .subscribed(downstream, winner: side)
            asked = .none
            guard demand > 0 else {
                held = value
                return .hold(cancelling: loser)
            }
            demand -= 1
            delivering = true
            return .deliver(downstream, cancelling: loser)
        case .subscribed(let downstream, side) where demand > 0:
            demand -= 1
            if asked != .unlimited, asked > 0 { asked -= 1 }
            delivering = true
            return .deliver(downstream, cancelling: [])
        case .subscribed, .completing, .terminated:
            return .none
        }
    }

    /// Makes `side` the winner: the losers' subscriptions, to cancel. Only the winner's is kept.
    @inlinable
    mutating func decide(_ side: Int) -> [any Subscription] {
        var losers: [any Subscription] = []
        losers.reserveCapacity(contenders.count - 1)
        for index in contenders.indices where index != side {
            if let loser = contenders[index] { losers.append(loser) }
        }
        let winner = contenders[side]
        contenders = [winner]
        return losers
    }

    /// The winner's subscription (the one kept by ``decide(_:)``), if it has arrived.
    @inlinable
    var winnerSubscription: (any Subscription)? {
        contenders.first ?? nil
    }

    @usableFromInline
    enum DeliveredAction {
        /// Ask the winner for this much more (nothing if `.none`).
        case request(any Subscription, Subscribers.Demand)
        /// Send this completion to the downstream.
        case complete(Box<Downstream>, Completion)
        case none
    }

    /// A value was delivered and the downstream asked for `additional` more.
    @inlinable
    mutating func delivered(_ additional: Subscribers.Demand) -> DeliveredAction {
        delivering = false
        switch phase {
        case .subscribed(_, let winner):
            demand += additional
            return topUp(winner)
        case .completing(let downstream, let completion):
            phase = .terminated
            contenders = []
            return .complete(downstream, completion)
        case .awaitingSubscription, .terminated:
            return .none
        }
    }

    /// What to ask the winner so that it has been asked for all the downstream's demand.
    @inlinable
    mutating func topUp(_ winner: Int) -> DeliveredAction {
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

    /// A contender's completion: it decides the race (the losers are cancelled) or ends the
    /// winner's stream, or waits behind a held or delivered value.
    @inlinable
    mutating func receiveCompletion(_ completion: Completion, from side: Int) -> SideEnding<Downstream> {
        switch phase {
        case .awaitingSubscription(let downstream):
            let loser = decide(side)
            guard downstreamSubscribed else {
                phase = .completing(downstream, completion)
                return .cancel(loser)
            }
            end()
            return .complete(downstream, completion, cancel: loser)
        case .subscribed(let downstream, side):
            if case .finished = completion, held != nil || delivering {
                phase = .completing(downstream, completion)
                return .none
            }
            guard downstreamSubscribed else {
                held = nil
                phase = .completing(downstream, completion)
                return .none
            }
            end()
            return .complete(downstream, completion, cancel: [])
        case .subscribed, .completing, .terminated:
            return .none
        }
    }

    // MARK: Downstream

    /// The downstream is about to be handed its subscription: from now on a completion goes to
    /// it at once. Returns the downstream to hand it to.
    @inlinable
    mutating func handingOver() -> Box<Downstream>? {
        downstreamSubscribed = true
        switch phase {
        case .awaitingSubscription(let downstream), .subscribed(let downstream, _), .completing(let downstream, _):
            return downstream
        case .terminated:
            return nil
        }
    }

    /// The downstream has returned from `receive(subscription:)`: a completion that ended the
    /// race before then goes now, unless a held value is still ahead of it (it then follows
    /// that value) or the downstream has cancelled.
    @inlinable
    mutating func handedOver() -> SideEnding<Downstream> {
        guard case .completing(let downstream, let completion) = phase, held == nil, !delivering else { return .none }
        end()
        return .complete(downstream, completion, cancel: [])
    }

    @usableFromInline
    enum RequestAction {
        /// Deliver the held value to this downstream, then report with ``delivered(_:)``.
        case deliverHeld(Box<Downstream>, Output)
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
        case .subscribed(let downstream, let winner):
            demand += additional
            if let value = takeHeld() { return .deliverHeld(downstream, value) }
            guard case .request(let subscription, let more) = topUp(winner), more > 0 else { return .none }
            return .forward(subscription, more)
        case .completing(let downstream, _):
            // The winner has finished: only a held value is left to deliver.
            demand += additional
            if let value = takeHeld() { return .deliverHeld(downstream, value) }
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

    /// The downstream cancelled: cancel the live contenders, and let the downstream go outside
    /// the lock.
    @inlinable
    mutating func cancel() -> SideEnding<Downstream> {
        let released: Box<Downstream>
        switch phase {
        case .awaitingSubscription(let downstream), .subscribed(let downstream, _), .completing(let downstream, _):
            released = downstream
        case .terminated:
            return .none
        }
        let live = contenders.compactMap { $0 }
        end()
        return .cancel(live, released: released)
    }

    /// Moves to `terminated`, letting go of everything.
    @inlinable
    mutating func end() {
        phase = .terminated
        contenders = []
        held = nil
    }
}
