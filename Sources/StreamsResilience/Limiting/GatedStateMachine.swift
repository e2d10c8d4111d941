import Streams

/// The state of a subscription that waits for a limiter before it subscribes to its upstream
/// (`concurrencyLimited`, `rateLimited`): a value with no lock and no callouts. Each event
/// updates it and returns what the subscription must do once the lock is released.
///
/// The downstream gets the operator's own subscription first, so that it can ask for values and
/// cancel while the call waits; the gate may open before or after that.
///
/// Phases:
/// - `awaitingGate(downstream, upstream, demand, handed, open)`: waiting for the downstream to have the
///   subscription (`handed`) and for the gate (`open`); once both → `awaitingSubscription` and the
///   upstream is subscribed; `cancel` → `terminated` (a closed gate is abandoned, an open one
///   released).
/// - `awaitingSubscription(downstream, demand)`: the upstream subscription → `subscribed` and the
///   demand gathered meanwhile is asked for; `cancel` → `cancelling`.
/// - `cancelling`: cancelled while the upstream was being subscribed to. The call has started,
///   so the gate is kept until the upstream's subscription arrives: it is cancelled, then the
///   gate released → `terminated`. (Releasing at the cancel would let the next call run beside
///   one still starting.)
/// - `subscribed(downstream, upstream)`: values and demand pass; the completion or `cancel` →
///   `terminated` (the gate is released).
/// - `terminated`: everything has been let go; a gate opening now is released at once.
@usableFromInline
struct GatedStateMachine<Upstream, Downstream: Subscriber> {
    @usableFromInline
    enum Phase {
        case awaitingGate(Downstream, Upstream, demand: Subscribers.Demand, handed: Bool, open: Bool)
        case awaitingSubscription(Downstream, demand: Subscribers.Demand)
        /// Cancelled while the upstream was being subscribed to: the permit is kept until the
        /// upstream's subscription arrives and is cancelled, so that a call still starting never
        /// runs beside the calls the permit goes to next.
        case cancelling
        case subscribed(Downstream, upstream: any Subscription)
        case terminated
    }

    @usableFromInline
    enum StartAction {
        /// Subscribe to the upstream now.
        case subscribeUpstream(Upstream)
        /// The gate opened for a call that was cancelled: give it back.
        case release
        case none
    }

    @usableFromInline
    enum ArmedAction {
        /// The wait is kept until the gate opens or the call is cancelled.
        case keep
        /// The gate opened or the call was cancelled meanwhile: cancel the wait.
        case cancelWait(any Cancellable)
    }

    @usableFromInline
    enum DisarmAction {
        case cancel(any Cancellable)
        case none
    }

    @usableFromInline
    enum ReceiveSubscriptionAction {
        /// Ask the upstream for what the downstream asked for meanwhile.
        case request(any Subscription, Subscribers.Demand)
        case none
        case cancel
        /// The call was cancelled while it was subscribing: cancel the subscription, then
        /// release the gate.
        case cancelAndRelease
    }

    @usableFromInline
    enum ReceiveValueAction {
        case deliver(Downstream)
        case drop
    }

    @usableFromInline
    enum ReceiveCompletionAction {
        /// Release the gate, then deliver the completion.
        case deliver(Downstream)
        /// A completion for a call cancelled while subscribing: release the gate.
        case release
        case none
    }

    @usableFromInline
    enum RequestAction {
        case forward(any Subscription)
        case none
    }

    @usableFromInline
    enum CancelAction {
        /// Stop waiting (and cancel the timed wait, if any): the gate never opened.
        case abandon(wait: (any Cancellable)?)
        /// Release the gate.
        case release
        /// Cancel the upstream and release the gate.
        case cancel(any Subscription)
        case none
    }

    @usableFromInline
    var phase: Phase
    /// The timed wait for the gate, if the gate opens on a timer (awaiting the gate).
    @usableFromInline
    var wait: (any Cancellable)?

    @inlinable
    init(downstream: Downstream, upstream: Upstream) {
        phase = .awaitingGate(downstream, upstream, demand: .none, handed: false, open: false)
    }

    /// The downstream has the subscription.
    @inlinable
    mutating func handed() -> StartAction {
        guard case .awaitingGate(let downstream, let upstream, let demand, _, let open) = phase else { return .none }
        guard open else {
            phase = .awaitingGate(downstream, upstream, demand: demand, handed: true, open: false)
            return .none
        }
        phase = .awaitingSubscription(downstream, demand: demand)
        return .subscribeUpstream(upstream)
    }

    /// The timed wait for the gate was scheduled.
    @inlinable
    mutating func armed(_ wait: any Cancellable) -> ArmedAction {
        guard case .awaitingGate(_, _, _, _, false) = phase else { return .cancelWait(wait) }
        self.wait = wait
        return .keep
    }

    /// The timed wait fired: the wait to cancel (it is a repeating timer).
    @inlinable
    mutating func disarm() -> DisarmAction {
        defer { wait = nil }
        guard let wait else { return .none }
        return .cancel(wait)
    }

    /// The gate opened; it may open more than once (a timed wait firing again), which changes
    /// nothing.
    @inlinable
    mutating func gateOpened() -> StartAction {
        wait = nil
        switch phase {
        case .awaitingGate(_, _, _, _, true):
            return .none
        case .awaitingGate(let downstream, let upstream, let demand, let handed, false):
            guard handed else {
                phase = .awaitingGate(downstream, upstream, demand: demand, handed: false, open: true)
                return .none
            }
            phase = .awaitingSubscription(downstream, demand: demand)
            return .subscribeUpstream(upstream)
        case .terminated:
            return .release
        case .awaitingSubscription, .cancelling, .subscribed:
            // A timed wait that fired twice: the gate is open already.
            return .none
        }
    }

    @inlinable
    mutating func receiveSubscription(_ upstream: any Subscription) -> ReceiveSubscriptionAction {
        if case .cancelling = phase {
            phase = .terminated
            return .cancelAndRelease
        }
        guard case .awaitingSubscription(let downstream, let demand) = phase else { return .cancel }
        phase = .subscribed(downstream, upstream: upstream)
        return demand > 0 ? .request(upstream, demand) : .none
    }

    @inlinable
    func receiveValue() -> ReceiveValueAction {
        guard case .subscribed(let downstream, _) = phase else { return .drop }
        return .deliver(downstream)
    }

    @inlinable
    mutating func receiveCompletion() -> ReceiveCompletionAction {
        if case .cancelling = phase {
            phase = .terminated
            return .release
        }
        guard case .subscribed(let downstream, _) = phase else { return .none }
        phase = .terminated
        return .deliver(downstream)
    }

    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> RequestAction {
        switch phase {
        case .awaitingGate(let downstream, let upstream, let gathered, let handed, let open):
            phase = .awaitingGate(downstream, upstream, demand: gathered + demand, handed: handed, open: open)
            return .none
        case .awaitingSubscription(let downstream, let gathered):
            phase = .awaitingSubscription(downstream, demand: gathered + demand)
            return .none
        case .subscribed(_, let upstream):
            return .forward(upstream)
        case .cancelling, .terminated:
            return .none
        }
    }

    @inlinable
    mutating func cancel() -> CancelAction {
        switch phase {
        case .awaitingGate(_, _, _, _, let open):
            phase = .terminated
            defer { wait = nil }
            return open ? .release : .abandon(wait: wait)
        case .awaitingSubscription:
            // The upstream is being subscribed to, maybe on another thread: its subscription
            // is cancelled, and the permit released, when it arrives.
            phase = .cancelling
            return .none
        case .subscribed(_, let upstream):
            phase = .terminated
            return .cancel(upstream)
        case .cancelling, .terminated:
            return .none
        }
    }
}
