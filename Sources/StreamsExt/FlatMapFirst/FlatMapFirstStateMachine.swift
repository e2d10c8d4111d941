import Streams

/// The state of a `flatMapFirst` subscription: a value with no lock and no callouts. Each event
/// updates it and returns what the subscription must do once the lock is released.
///
/// Beside the downstream's part (a ``SideDownstream``: the downstream while values may go to it,
/// its demand not yet met, whether a value is on its way and a failure waiting for it):
/// - the upstream's stage (a ``SideUpstream``): `awaitingSubscription` → `subscribed`, where a
///   value starts an inner publisher when none runs and is ignored otherwise → `finished`, where
///   the inner publisher still running is followed to its end (the stream finishes at once when
///   none runs);
/// - the inner publisher that runs, numbered, so that a late event of an ended one is
///   recognised.
///
/// A failure of either side, or `cancel()`, ends it from every live stage.
@usableFromInline
struct FlatMapFirstStateMachine<Downstream: Subscriber>: SideStateMachine {
    @usableFromInline
    typealias Failure = Downstream.Failure

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
    var downstream: SideDownstream<Downstream>
    @usableFromInline
    var upstream = SideUpstream.awaitingSubscription
    @usableFromInline
    var inner = Inner.none
    /// The number of the newest inner publisher.
    @usableFromInline
    var innerCount = 0

    @inlinable
    init(downstream: Downstream) {
        self.downstream = SideDownstream(downstream)
    }

    // MARK: Upstream

    /// The upstream's subscription: kept and asked for all its values; or cancelled.
    @inlinable
    mutating func receiveUpstreamSubscription(_ subscription: any Subscription) -> SubscriptionArrival {
        upstream.admit(subscription, live: downstream.live != nil)
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
        guard downstream.live != nil, case .subscribed = upstream, case .none = inner else { return .ignore }
        innerCount += 1
        inner = .awaitingSubscription(number: innerCount)
        return .subscribeInner(number: innerCount)
    }

    /// What ends the stream.
    @usableFromInline
    typealias EndAction = SideEnding<Downstream>

    @inlinable
    mutating func receiveUpstreamCompletion(_ completion: Subscribers.Completion<Failure>) -> EndAction {
        guard downstream.live != nil, case .subscribed = upstream else { return .none }
        upstream = .finished
        if case .failure(let failure) = completion { return fail(failure, cancel: inner.subscription) }
        if case .none = inner { return terminate(.finished) }
        return .none
    }

    // MARK: Inner

    /// Inner publisher `number`'s subscription: kept and asked for the demand not yet met; or
    /// cancelled when it is not the one running.
    @inlinable
    mutating func receiveInnerSubscription(_ subscription: any Subscription, number: Int) -> SubscriptionArrival {
        guard downstream.live != nil, case .awaitingSubscription(number) = inner else { return .cancel }
        inner = .subscribed(number: number, subscription)
        return .request(downstream.demand)
    }

    /// Inner publisher `number`'s value: the downstream to send it to, then report with
    /// ``SideDownstream/delivered(_:)``; `nil` to drop it.
    @inlinable
    mutating func receiveInnerValue(number: Int) -> Box<Downstream>? {
        guard case .subscribed(number, _) = inner else { return nil }
        return downstream.claim()
    }

    @inlinable
    mutating func receiveInnerCompletion(_ completion: Subscribers.Completion<Failure>, number: Int) -> EndAction {
        guard downstream.live != nil, inner.isNumber(number) else { return .none }
        inner = .none
        if case .failure(let failure) = completion { return fail(failure, cancel: upstream.subscription) }
        guard case .finished = upstream else { return .none }
        return terminate(.finished)
    }

    // MARK: Downstream

    @usableFromInline
    enum RequestAction {
        case forward(any Subscription)
        case none
    }

    @inlinable
    mutating func request(_ additional: Subscribers.Demand) -> RequestAction {
        guard downstream.request(additional), let subscription = inner.subscription else { return .none }
        return .forward(subscription)
    }

    /// The downstream cancelled: cancel what runs, and let the downstream go outside the lock.
    @inlinable
    mutating func cancel() -> EndAction {
        let subscriptions = [upstream.subscription, inner.subscription].compactMap { $0 }
        upstream = .finished
        inner = .none
        return downstream.cancel(subscriptions)
    }

    // MARK: Ending

    /// Fails the stream, cancelling `cancel`; while a value is being delivered the failure waits
    /// for it to return.
    @inlinable
    mutating func fail(_ failure: Failure, cancel: (any Subscription)?) -> EndAction {
        upstream = .finished
        inner = .none
        return downstream.end(.failure(failure), cancel: cancel.map { [$0] } ?? [])
    }

    /// Finishes the stream at once: nothing is left to cancel.
    @inlinable
    mutating func terminate(_ completion: Subscribers.Completion<Failure>) -> EndAction {
        upstream = .finished
        inner = .none
        return downstream.terminate(completion, cancel: [])
    }
}
