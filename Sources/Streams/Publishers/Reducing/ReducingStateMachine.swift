/// The state of a ``ReducingSubscription`` (the reduce family: reduce, count, min/max, contains,
/// allSatisfy, first, last, collect() and their `try` forms): a value with no lock and no
/// callouts. Each event updates it and returns what the subscription must do once the lock is
/// released.
///
/// Phases:
/// - `awaitingSubscription`: the upstream subscription → `subscribed`. A `cancel()` here changes nothing, so
///   a late subscription is still accepted and asked for everything (as in Combine).
/// - `subscribed(upstream)`: the result is known (upstream finished, or the operator decided
///   early) → `completing` until the downstream has asked, or `terminated` when it already has; a failure
///   or a cancel → `terminated`.
/// - `completing(result)`: the result (nil: a bare `.finished`) waits for the first request.
/// - `terminated`: sent, failed or cancelled; the core (downstream and closures) is let go.
///
/// `demanded` records a request made before the result is known.
@usableFromInline
struct ReducingStateMachine<Core, Result> {
    @usableFromInline
    enum Phase {
        case awaitingSubscription
        case subscribed(any Subscription)
        case completing(Result?)
        case terminated
    }

    @usableFromInline
    var phase = Phase.awaitingSubscription
    @usableFromInline
    var core: Core?
    @usableFromInline
    var demanded = false

    @inlinable
    init(core: Core) {
        self.core = core
    }

    /// The upstream subscription arrived: the core to hand the subscription to, or nil (cancel it).
    @inlinable
    mutating func subscription(_ subscription: any Subscription) -> Core? {
        guard case .awaitingSubscription = phase, let core else { return nil }
        phase = .subscribed(subscription)
        return core
    }

    /// A value arrived: the core to fold it with, or nil (ignore it).
    @inlinable
    func value() -> Core? {
        guard case .subscribed = phase else { return nil }
        return core
    }

    /// What to do once the result is known.
    @usableFromInline
    struct Finish {
        /// To cancel (an early decision) or nil.
        @usableFromInline
        var upstream: (any Subscription)?
        /// Deliver the result (if any) and `.finished` to this core's downstream.
        @usableFromInline
        var deliver: Core?

        @inlinable
        init(upstream: (any Subscription)? = nil, deliver: Core? = nil) {
            self.upstream = upstream
            self.deliver = deliver
        }
    }

    /// The result is known: upstream finished (`cancelUpstream` false) or the operator decided
    /// early (true).
    @inlinable
    mutating func finish(_ result: Result?, cancelUpstream: Bool) -> Finish {
        guard case .subscribed(let upstream) = phase else { return Finish() }
        let cancelled = cancelUpstream ? upstream : nil
        guard demanded else {
            phase = .completing(result)
            return Finish(upstream: cancelled)
        }
        phase = .terminated
        defer { core = nil }
        return Finish(upstream: cancelled, deliver: core)
    }

    /// What a failure does once the lock is released.
    @usableFromInline
    enum FailAction {
        /// Not subscribed: the failure is ignored.
        case none
        /// Cancel `cancelling`, if any, then send the failure to `deliverTo`'s downstream.
        case fail(cancelling: (any Subscription)?, deliverTo: Core?)
    }

    /// A failure (from upstream, or thrown by a closure): the upstream to cancel (closure) and
    /// the core to send it to.
    @inlinable
    mutating func fail(cancelUpstream: Bool) -> FailAction {
        switch phase {
        case .subscribed(let upstream):
            phase = .terminated
            defer { core = nil }
            return .fail(cancelling: cancelUpstream ? upstream : nil, deliverTo: core)
        case .awaitingSubscription, .completing, .terminated:
            return .none
        }
    }

    /// What a downstream request does once the lock is released.
    @usableFromInline
    enum RequestAction {
        /// No result is held: nothing.
        case none
        /// Send the held `result` (nil: a bare `.finished`) to `core`'s downstream.
        case deliver(Core, Result?)
    }

    /// The downstream asked (non-zero demand): a held result to deliver now.
    @inlinable
    mutating func request() -> RequestAction {
        demanded = true
        guard case .completing(let result) = phase, let core else { return .none }
        phase = .terminated
        self.core = nil
        return .deliver(core, result)
    }

    /// What a cancel does once the lock is released.
    @usableFromInline
    enum CancelAction {
        /// Before the upstream subscription: nothing.
        case none
        /// Cancel `upstream`, if any; `released` (the core and the old phase) is let go outside
        /// the lock.
        case cancel(upstream: (any Subscription)?, released: Core?, phase: Phase)
    }

    /// The downstream cancelled: the upstream to cancel; what was held is returned to be let go
    /// outside the lock.
    @inlinable
    mutating func cancel() -> CancelAction {
        let old = phase
        switch old {
        case .awaitingSubscription:
            return .none
        case .subscribed(let upstream):
            phase = .terminated
            defer { core = nil }
            return .cancel(upstream: upstream, released: core, phase: old)
        case .completing, .terminated:
            phase = .terminated
            defer { core = nil }
            return .cancel(upstream: nil, released: core, phase: old)
        }
    }
}
