/// The state of a `subscribe(on:)` subscription: a value with no lock and no callouts. Each event
/// method updates it and returns what the subscription must do once the lock is released.
///
/// Phases, and the events that move between them:
/// - `awaitingSubscription`: the upstream subscription → `subscribed`. Values, completions,
///   requests and `cancel()` are ignored here (so a late subscription is still accepted).
/// - `subscribed`: values go straight downstream; each request is scheduled; the completion →
///   `terminated`; `cancel()` schedules the upstream's cancel → `cancelling`.
/// - `cancelling`: values, completions and new requests are ignored; requests scheduled
///   before the cancel still reach the upstream when they run. The scheduled cancel has run →
///   `terminated`, and the downstream, kept until then as in Combine, is let go of.
/// - `terminated`: nothing is held.
///
/// Apart from the phase, `call` tracks whether a thread is inside the upstream's `request` or
/// `cancel`: a scheduled request or cancel that runs meanwhile (re-entering from the upstream on a
/// synchronous scheduler, or on another thread of a concurrent one) is left to that thread,
/// which makes it once its call has returned. Combine traps on the re-entrant request instead
/// (see "`subscribe(on:)` with a synchronous scheduler" in Docs/MigratingFromCombine.md);
/// either way the upstream is never entered twice at once. Requests left waiting are added up,
/// so a waiting `request(.none)` is not passed on.
@usableFromInline
struct SubscribeOnStateMachine<Downstream: Subscriber> {
    @usableFromInline
    enum Phase {
        case awaitingSubscription(Box<Downstream>)
        case subscribed(upstream: any Subscription, downstream: Box<Downstream>)
        case cancelling(upstream: any Subscription, downstream: Box<Downstream>)
        case terminated
    }

    /// Whether a thread is calling the upstream.
    @usableFromInline
    enum Call {
        case idle
        /// Calling; `demand` and `cancel` are left for the caller to make next.
        case calling(demand: Subscribers.Demand, cancel: Bool)
    }

    /// A call to make on the upstream, outside the lock.
    @usableFromInline
    enum UpstreamCall {
        case request(any Subscription, Subscribers.Demand)
        /// Cancel, then let go of the downstream.
        case cancel(any Subscription, Box<Downstream>)
    }

    /// What the completion lets go of: the downstream to complete, and the upstream subscription.
    @usableFromInline
    struct Completing {
        @usableFromInline
        let downstream: Box<Downstream>
        @usableFromInline
        let upstream: any Subscription

        @inlinable
        init(downstream: Box<Downstream>, upstream: any Subscription) {
            self.downstream = downstream
            self.upstream = upstream
        }
    }

    @usableFromInline
    var phase: Phase
    @usableFromInline
    var call = Call.idle

    @inlinable
    init(downstream: Downstream) {
        phase = .awaitingSubscription(Box(downstream))
    }

    // MARK: Events

    /// The upstream subscription arrived: the downstream to hand the subscription to, or nil
    /// when it must be cancelled (a second subscription).
    @inlinable
    mutating func receiveSubscription(_ upstream: any Subscription) -> Box<Downstream>? {
        guard case .awaitingSubscription(let downstream) = phase else { return nil }
        phase = .subscribed(upstream: upstream, downstream: downstream)
        return downstream
    }

    /// A value arrived: the downstream to deliver it to, while subscribed.
    @inlinable
    func receiveValue() -> Box<Downstream>? {
        guard case .subscribed(_, let downstream) = phase else { return nil }
        return downstream
    }

    /// The completion arrived: what to complete, while subscribed.
    @inlinable
    mutating func receiveCompletion() -> Completing? {
        guard case .subscribed(let upstream, let downstream) = phase else { return nil }
        phase = .terminated
        return Completing(downstream: downstream, upstream: upstream)
    }

    /// The downstream's request: whether to schedule it (only while subscribed).
    @inlinable
    func request() -> Bool {
        if case .subscribed = phase { true } else { false }
    }

    /// The downstream cancelled: whether to schedule the upstream's cancel (only while
    /// subscribed).
    @inlinable
    mutating func cancel() -> Bool {
        guard case .subscribed(let upstream, let downstream) = phase else { return false }
        phase = .cancelling(upstream: upstream, downstream: downstream)
        return true
    }

    /// A scheduled request has run: the call to make, unless another thread is calling the
    /// upstream (it makes this one next) or the upstream is gone.
    @inlinable
    mutating func requestRan(_ demand: Subscribers.Demand) -> UpstreamCall? {
        let upstream: any Subscription
        switch phase {
        case .subscribed(let subscription, _), .cancelling(let subscription, _): upstream = subscription
        case .terminated: return nil
        case .awaitingSubscription:
            preconditionFailure("SubscribeOnStateMachine: internal inconsistency: a request ran before the subscription")
        }
        switch call {
        case .idle:
            call = .calling(demand: .none, cancel: false)
            return .request(upstream, demand)
        case .calling(let pending, let cancel):
            call = .calling(demand: pending + demand, cancel: cancel)
            return nil
        }
    }

    /// The scheduled cancel has run: the call to make, unless another thread is calling the
    /// upstream (it makes this one next).
    @inlinable
    mutating func cancelRan() -> UpstreamCall? {
        guard case .cancelling(let upstream, let downstream) = phase else {
            preconditionFailure("SubscribeOnStateMachine: internal inconsistency: a cancel ran that was never scheduled")
        }
        switch call {
        case .idle:
            phase = .terminated
            call = .calling(demand: .none, cancel: false)
            return .cancel(upstream, downstream)
        case .calling(let pending, _):
            call = .calling(demand: pending, cancel: true)
            return nil
        }
    }

    /// A call to the upstream has returned: the call left for this thread to make next.
    @inlinable
    mutating func callReturned() -> UpstreamCall? {
        guard case .calling(let demand, let cancel) = call else {
            preconditionFailure("SubscribeOnStateMachine: internal inconsistency: a call returned that was never made")
        }
        switch phase {
        case .subscribed(let upstream, _) where demand > 0, .cancelling(let upstream, _) where demand > 0:
            call = .calling(demand: .none, cancel: cancel)
            return .request(upstream, demand)
        case .cancelling(let upstream, let downstream) where cancel:
            phase = .terminated
            call = .calling(demand: .none, cancel: false)
            return .cancel(upstream, downstream)
        default:
            call = .idle
            return nil
        }
    }
}
