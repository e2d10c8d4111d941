import Streams

/// The state of a `flatMapFirst` subscription: a value with no lock and no callouts. Each event
/// updates it and returns what the subscription must do once the lock is released.
///
/// Phases:
/// - `awaitingSubscription(downstream)`: the downstream has the subscription; the upstream's has
///   not arrived. Its arrival → `subscribed`.
/// - `subscribed(downstream, upstream)`: an upstream value starts an inner publisher when none
///   runs, and is ignored otherwise. The upstream finishing → `completing` while an inner
///   publisher runs, else `terminated`.
/// - `completing(downstream, failure)`: the stream is ending; the inner publisher still running
///   is followed to its end (`failure == nil`), or a failure waits for the value being delivered
///   to return before it goes downstream.
/// - `terminated`: completed or cancelled; everything has been let go and is ignored.
///
/// A failure of either side, or `cancel()`, ends it from every live phase. The inner publisher
/// (numbered, so that a late event of an ended one is recognised), the downstream's demand not
/// yet met and whether a value is being delivered sit beside the phase.
@usableFromInline
struct FlatMapFirstStateMachine<Downstream: Subscriber> {
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    enum Phase {
        case awaitingSubscription(Box<Downstream>)
        case subscribed(Box<Downstream>, upstream: any Subscription)
        /// `failure == nil`: the upstream finished, the inner publisher runs on. Otherwise a
        /// failure decided while a value was being delivered, sent once it returns.
        case completing(Box<Downstream>, failure: Failure?)
        case terminated
    }

    /// The inner publisher that runs, if any.
    @usableFromInline
    enum Inner {
        case none
        /// Inner publisher `number` is being subscribed; its subscription has not arrived.
        case awaitingSubscription(number: Int)
        case subscribed(number: Int, any Subscription)

        @inlinable
        var subscription: (any Subscription)? {
            if case .subscribed(_, let subscription) = self { subscription } else { nil }
        }

        @inlinable
        func isNumber(_ number: Int) -> Bool {
            switch self {
            case .none: false
            case .awaitingSubscription(let current), .subscribed(let current, _): current == number
            }
        }
    }

    @usableFromInline
    var phase: Phase
    @usableFromInline
    var inner = Inner.none
    /// The number of the newest inner publisher.
    @usableFromInline
    var innerCount = 0
    /// Requested by the downstream and not yet delivered.
    @usableFromInline
    var demand = Subscribers.Demand.none
    /// Whether a value is on its way downstream (outside the lock).
    @usableFromInline
    var delivering = false

    @inlinable
    init(downstream: Downstream) {
        phase = .awaitingSubscription(Box(downstream))
    }

    @inlinable
    var downstream: Box<Downstream>? {
        switch phase {
        case .awaitingSubscription(let downstream), .subscribed(let downstream, _), .completing(let downstream, nil):
            downstream
        case .completing, .terminated:
            nil
        }
    }

    // MARK: Upstream

    @usableFromInline
    enum UpstreamSubscriptionAction {
        case requestUnlimited
        case cancel
    }

    @inlinable
    mutating func receiveUpstreamSubscription(_ subscription: any Subscription) -> UpstreamSubscriptionAction {
        guard case .awaitingSubscription(let downstream) = phase else { return .cancel }
        phase = .subscribed(downstream, upstream: subscription)
        return .requestUnlimited
    }

    @usableFromInline
    enum UpstreamValueAction {
        /// No inner publisher runs: make one and subscribe it as number `number`.
        case subscribeInner(number: Int)
        /// One runs, or the stream has ended: ignore the value.
        case ignore
    }

    @inlinable
    mutating func receiveUpstreamValue() -> UpstreamValueAction {
        guard case .subscribed = phase, case .none = inner else { return .ignore }
        innerCount += 1
        inner = .awaitingSubscription(number: innerCount)
        return .subscribeInner(number: innerCount)
    }

    /// What ends the stream: send `completion` to the downstream after cancelling `cancel`.
    @usableFromInline
    enum EndAction {
        case complete(Box<Downstream>, Subscribers.Completion<Failure>, cancel: (any Subscription)?)
        /// Cancel this; the completion is sent by the thread delivering a value.
        case cancel(any Subscription)
        case none
    }

    @inlinable
    mutating func receiveUpstreamCompletion(_ completion: Subscribers.Completion<Failure>) -> EndAction {
        guard case .subscribed(let downstream, _) = phase else { return .none }
        if case .failure(let failure) = completion { return fail(failure, downstream: downstream, cancel: inner.subscription) }
        if case .none = inner { return terminate(downstream, .finished, cancel: nil) }
        phase = .completing(downstream, failure: nil)
        return .none
    }

    // MARK: Inner

    @usableFromInline
    enum InnerSubscriptionAction {
        /// Ask it for the demand not yet met (nothing if `.none`).
        case request(Subscribers.Demand)
        case cancel
    }

    @inlinable
    mutating func receiveInnerSubscription(_ subscription: any Subscription, number: Int) -> InnerSubscriptionAction {
        guard downstream != nil, case .awaitingSubscription(number) = inner else { return .cancel }
        inner = .subscribed(number: number, subscription)
        return .request(demand)
    }

    @usableFromInline
    enum InnerValueAction {
        /// Send the value to this downstream, then report with ``delivered(_:)``.
        case deliver(Box<Downstream>)
        case none
    }

    @inlinable
    mutating func receiveInnerValue(number: Int) -> InnerValueAction {
        guard let downstream, case .subscribed(number, _) = inner, demand > 0 else { return .none }
        demand -= 1
        delivering = true
        return .deliver(downstream)
    }

    /// A value was delivered and the downstream asked for `additional` more.
    @inlinable
    mutating func delivered(_ additional: Subscribers.Demand) -> EndAction {
        delivering = false
        if case .completing(let downstream, let failure?) = phase {
            return terminate(downstream, .failure(failure), cancel: nil)
        }
        if downstream != nil { demand += additional }
        return .none
    }

    @inlinable
    mutating func receiveInnerCompletion(_ completion: Subscribers.Completion<Failure>, number: Int) -> EndAction {
        guard let downstream, inner.isNumber(number) else { return .none }
        inner = .none
        if case .failure(let failure) = completion {
            let upstream: (any Subscription)?
            if case .subscribed(_, let subscription) = phase { upstream = subscription } else { upstream = nil }
            return fail(failure, downstream: downstream, cancel: upstream)
        }
        guard case .completing = phase else { return .none }
        return terminate(downstream, .finished, cancel: nil)
    }

    // MARK: Downstream

    @usableFromInline
    enum RequestAction {
        case forward(any Subscription)
        case none
    }

    @inlinable
    mutating func request(_ additional: Subscribers.Demand) -> RequestAction {
        guard downstream != nil else { return .none }
        demand += additional
        guard let subscription = inner.subscription else { return .none }
        return .forward(subscription)
    }

    @usableFromInline
    enum CancelAction {
        /// Cancel these; the downstream is let go of outside the lock.
        case cancel(upstream: (any Subscription)?, inner: (any Subscription)?, released: Box<Downstream>?)
        case none
    }

    @inlinable
    mutating func cancel() -> CancelAction {
        let upstream: (any Subscription)?
        let released: Box<Downstream>?
        switch phase {
        case .awaitingSubscription(let downstream):
            (upstream, released) = (nil, downstream)
        case .subscribed(let downstream, let subscription):
            (upstream, released) = (subscription, downstream)
        case .completing(let downstream, _):
            (upstream, released) = (nil, downstream)
        case .terminated:
            return .none
        }
        let current = inner.subscription
        phase = .terminated
        inner = .none
        return .cancel(upstream: upstream, inner: current, released: released)
    }

    // MARK: Ending

    /// Fails the stream, cancelling `cancel`; while a value is being delivered the failure waits
    /// for it to return.
    @inlinable
    mutating func fail(_ failure: Failure, downstream: Box<Downstream>, cancel: (any Subscription)?) -> EndAction {
        guard delivering else { return terminate(downstream, .failure(failure), cancel: cancel) }
        phase = .completing(downstream, failure: failure)
        inner = .none
        return cancel.map(EndAction.cancel) ?? .none
    }

    @inlinable
    mutating func terminate(
        _ downstream: Box<Downstream>, _ completion: Subscribers.Completion<Failure>, cancel: (any Subscription)?
    ) -> EndAction {
        phase = .terminated
        inner = .none
        return .complete(downstream, completion, cancel: cancel)
    }
}
