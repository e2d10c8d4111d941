import Streams

/// The state of a `minimumDuration` subscription: a value with no lock and no calls out. Each
/// event updates it and returns, as a named action, what the subscription must do once the lock
/// is released.
///
/// Phases:
/// - `awaitingSubscription(downstream)`: the upstream subscription → `subscribed`.
/// - `subscribed(downstream, upstream)`: before the deadline (`gate == .holding`) values are
///   held; at the deadline they are handed over one by one (`.draining`; values arriving
///   meanwhile queue behind them), then values pass at once (`.open`). The upstream's
///   completion while the gate is open is delivered at once; before, → `completing`.
/// - `completing(downstream, completion)`: the upstream ended before its held values and its
///   completion could be delivered; they go out at the deadline (or as the drain reaches them).
/// - `terminated`: delivered or cancelled; nothing more happens.
struct MinimumDurationStateMachine<Downstream: Subscriber> {
    typealias Input = Downstream.Input
    typealias Completion = Subscribers.Completion<Downstream.Failure>

    enum Phase {
        case awaitingSubscription(Downstream)
        case subscribed(Downstream, upstream: any Subscription)
        case completing(Downstream, Completion)
        case terminated
    }

    /// Whether values pass (subscribed only).
    enum Gate {
        /// Before the deadline: values are held.
        case holding
        /// At the deadline: the held values are being handed over.
        case draining
        /// After: values pass at once.
        case open
    }

    /// What to do with a new upstream subscription.
    enum ReceiveSubscriptionAction {
        /// Hand the subscription to the downstream; `scheduleDeadline` unless it has passed.
        case subscribe(Downstream, scheduleDeadline: Bool)
        /// A second subscription, or one after cancellation: cancel it.
        case cancel
    }

    /// What to do with an upstream value.
    enum ReceiveValueAction {
        /// Pass it on now.
        case deliver(Downstream)
        /// It was held, or the stream has ended: nothing now.
        case none
    }

    /// What to do with the upstream's completion.
    enum ReceiveCompletionAction {
        /// Deliver it now.
        case deliver(Downstream)
        /// It waits for the deadline, or the stream has ended: nothing now.
        case none
    }

    /// The next step of handing over what was held.
    enum DeliveryAction {
        /// Send this held value, then report the downstream's answer with `delivered(_:)`.
        case deliverValue(Downstream, Input)
        /// Send the held completion: the end.
        case deliverCompletion(Downstream, Completion)
        /// All handed over: ask the upstream for the demand the downstream added meanwhile.
        case requestUpstream(any Subscription, Subscribers.Demand)
        /// Nothing to do.
        case none
    }

    /// What to do on cancel.
    enum CancelAction {
        /// Cancel the upstream; `released` is let go outside the lock.
        case cancelUpstream(any Subscription, released: Phase)
        /// Nothing to cancel; `released` is let go outside the lock.
        case none(released: Phase)
    }

    private(set) var phase: Phase
    private(set) var gate = Gate.holding
    /// Values that arrived before the deadline, in order.
    private var held: [Input] = []
    /// Demand the downstream added while held values were handed over.
    private var addedDemand = Subscribers.Demand.none

    init(downstream: Downstream) {
        phase = .awaitingSubscription(downstream)
    }

    /// The upstream subscribed, when the deadline `hasPassed` or not.
    mutating func receiveSubscription(_ upstream: any Subscription, deadlineHasPassed: Bool) -> ReceiveSubscriptionAction {
        guard case .awaitingSubscription(let downstream) = phase else { return .cancel }
        phase = .subscribed(downstream, upstream: upstream)
        gate = deadlineHasPassed ? .open : .holding
        return .subscribe(downstream, scheduleDeadline: !deadlineHasPassed)
    }

    /// A value from the upstream.
    mutating func receiveValue(_ value: Input) -> ReceiveValueAction {
        guard case .subscribed(let downstream, _) = phase else { return .none }
        guard gate == .open else {
            held.append(value)
            return .none
        }
        return .deliver(downstream)
    }

    /// The upstream's completion.
    mutating func receiveCompletion(_ completion: Completion) -> ReceiveCompletionAction {
        guard case .subscribed(let downstream, _) = phase else { return .none }
        guard gate == .open else {
            phase = .completing(downstream, completion)
            return .none
        }
        phase = .terminated
        return .deliver(downstream)
    }

    /// The deadline came: start handing over what was held.
    mutating func deadlineReached() -> DeliveryAction {
        if case .subscribed = phase { gate = .draining }
        return nextDelivery()
    }

    /// The downstream took a held value and asked for `demand` more.
    mutating func delivered(_ demand: Subscribers.Demand) -> DeliveryAction {
        addedDemand += demand
        return nextDelivery()
    }

    private mutating func nextDelivery() -> DeliveryAction {
        switch phase {
        case .subscribed(let downstream, let upstream):
            guard gate == .draining else { return .none }
            if !held.isEmpty { return .deliverValue(downstream, held.removeFirst()) }
            gate = .open
            defer { addedDemand = .none }
            return addedDemand > 0 ? .requestUpstream(upstream, addedDemand) : .none
        case .completing(let downstream, let completion):
            if !held.isEmpty { return .deliverValue(downstream, held.removeFirst()) }
            phase = .terminated
            return .deliverCompletion(downstream, completion)
        case .awaitingSubscription, .terminated:
            return .none
        }
    }

    /// The upstream to pass the downstream's request to, while it runs.
    var upstream: (any Subscription)? {
        if case .subscribed(_, let upstream) = phase { upstream } else { nil }
    }

    /// The downstream cancelled.
    mutating func cancel() -> CancelAction {
        let released = phase
        phase = .terminated
        held = []
        if case .subscribed(_, let upstream) = released { return .cancelUpstream(upstream, released: released) }
        return .none(released: released)
    }

    /// The downstream, for the mirror.
    var downstream: Downstream? {
        switch phase {
        case .awaitingSubscription(let downstream), .subscribed(let downstream, _), .completing(let downstream, _): downstream
        case .terminated: nil
        }
    }
}
