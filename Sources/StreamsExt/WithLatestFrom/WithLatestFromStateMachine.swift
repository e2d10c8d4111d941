import Streams

/// The state of a `withLatestFrom` subscription: a value with no lock and no callouts. Each event
/// updates it and returns what the subscription must do once the lock is released.
///
/// "Upstream" is the publisher whose values are sent; "other" is the one whose latest value
/// goes with each.
///
/// Phases:
/// - `awaitingSubscription(downstream)`: the upstream is not subscribed yet. The other's first
///   value has it subscribed (once); the downstream's requests are added up meanwhile. Its
///   subscription → `subscribed`, asked for what was requested.
/// - `subscribed(downstream, upstream)`: each upstream value goes downstream with the latest
///   other value; requests go to the upstream.
/// - `terminated`: completed or cancelled; everything has been let go and is ignored.
///
/// From the first two: the upstream's completion, the other's failure, the other finishing
/// without a value, or a `cancel()` → `terminated`, cancelling whichever side is still running.
/// The other's latest value and subscription, and the requests waiting for the upstream, sit
/// beside the phase.
@usableFromInline
struct WithLatestFromStateMachine<Downstream: Subscriber, Latest> {
    @usableFromInline
    enum Phase {
        case awaitingSubscription(Box<Downstream>)
        case subscribed(Box<Downstream>, upstream: any Subscription)
        case terminated
    }

    @usableFromInline
    var phase: Phase
    /// The other's newest value, once it has sent one.
    @usableFromInline
    var latest: Latest?
    /// The other's subscription, while it runs.
    @usableFromInline
    var other: (any Subscription)?
    /// What the downstream requested before the upstream's subscription arrived.
    @usableFromInline
    var pendingDemand = Subscribers.Demand.none

    @inlinable
    init(downstream: Downstream) {
        phase = .awaitingSubscription(Box(downstream))
    }

    // MARK: The other publisher

    @usableFromInline
    enum OtherSubscriptionAction {
        /// Ask the other for all its values.
        case requestUnlimited(any Subscription)
        /// A second subscription, or one after the end: cancel it.
        case cancel(any Subscription)
    }

    @inlinable
    mutating func receiveOtherSubscription(_ subscription: any Subscription) -> OtherSubscriptionAction {
        if case .terminated = phase { return .cancel(subscription) }
        guard other == nil else { return .cancel(subscription) }
        other = subscription
        return .requestUnlimited(subscription)
    }

    @usableFromInline
    enum OtherValueAction {
        /// The first value: subscribe to the upstream now.
        case subscribeUpstream
        case none
    }

    @inlinable
    mutating func receiveOtherValue(_ value: Latest) -> OtherValueAction {
        if case .terminated = phase { return .none }
        let isFirst = latest == nil
        latest = value
        guard isFirst, case .awaitingSubscription = phase else { return .none }
        return .subscribeUpstream
    }

    /// What ends the stream: complete the downstream, cancelling the side still running.
    @usableFromInline
    enum EndAction {
        case complete(Box<Downstream>, cancelling: (any Subscription)?)
        case none
    }

    /// The other finished (`failed == false`) or failed.
    @inlinable
    mutating func receiveOtherCompletion(failed: Bool) -> EndAction {
        other = nil
        // Finished after a value: its last value keeps being used.
        guard failed || latest == nil else { return .none }
        return end(cancellingOther: false)
    }

    // MARK: The upstream

    @usableFromInline
    enum UpstreamSubscriptionAction {
        /// Hand over: ask the upstream for what the downstream requested meanwhile, if anything.
        case request(any Subscription, Subscribers.Demand)
        /// One after the end, or a second one: cancel it.
        case cancel
    }

    @inlinable
    mutating func receiveUpstreamSubscription(_ upstream: any Subscription) -> UpstreamSubscriptionAction {
        guard case .awaitingSubscription(let downstream) = phase, latest != nil else { return .cancel }
        phase = .subscribed(downstream, upstream: upstream)
        defer { pendingDemand = .none }
        return .request(upstream, pendingDemand)
    }

    @usableFromInline
    enum UpstreamValueAction {
        /// Combine the value with `latest` and send the result to this downstream.
        case deliver(Box<Downstream>, latest: Latest)
        case none
    }

    @inlinable
    func receiveUpstreamValue() -> UpstreamValueAction {
        guard case .subscribed(let downstream, _) = phase, let latest else { return .none }
        return .deliver(downstream, latest: latest)
    }

    @inlinable
    mutating func receiveUpstreamCompletion() -> EndAction {
        guard case .subscribed = phase else { return .none }
        return end(cancellingOther: true)
    }

    // MARK: The downstream

    @usableFromInline
    enum RequestAction {
        case forward(any Subscription)
        case none
    }

    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> RequestAction {
        switch phase {
        case .awaitingSubscription:
            pendingDemand += demand
            return .none
        case .subscribed(_, let upstream):
            return .forward(upstream)
        case .terminated:
            return .none
        }
    }

    @usableFromInline
    enum CancelAction {
        /// Cancel these; the downstream is let go of outside the lock.
        case cancel(upstream: (any Subscription)?, other: (any Subscription)?, released: Box<Downstream>)
        case none
    }

    @inlinable
    mutating func cancel() -> CancelAction {
        let previous = phase
        let other = self.other
        phase = .terminated
        self.other = nil
        latest = nil
        switch previous {
        case .awaitingSubscription(let downstream):
            return .cancel(upstream: nil, other: other, released: downstream)
        case .subscribed(let downstream, let upstream):
            return .cancel(upstream: upstream, other: other, released: downstream)
        case .terminated:
            return .none
        }
    }

    /// Ends the stream from the upstream or the other: the downstream to complete, and the
    /// subscription to cancel (the upstream, or the other when `cancellingOther`).
    @inlinable
    mutating func end(cancellingOther: Bool) -> EndAction {
        let previous = phase
        let other = self.other
        phase = .terminated
        self.other = nil
        latest = nil
        switch previous {
        case .awaitingSubscription(let downstream):
            return .complete(downstream, cancelling: cancellingOther ? other : nil)
        case .subscribed(let downstream, let upstream):
            return .complete(downstream, cancelling: cancellingOther ? other : upstream)
        case .terminated:
            return .none
        }
    }
}
