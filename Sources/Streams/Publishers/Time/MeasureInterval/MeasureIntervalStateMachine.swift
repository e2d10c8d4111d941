/// The state of a `measureInterval(using:)` subscription: a value with no lock and no callouts.
/// Each event method updates it and returns what the subscription must do once the lock is
/// released. The scheduler's `now` is read by the subscription, outside the lock, and passed in;
/// as in Combine, only while the subscription is awaited or live (``awaitsSubscription``,
/// ``isSubscribed``).
///
/// Phases, and the events that move between them:
/// - `awaitingSubscription`: the upstream subscription → `subscribed`, measuring from its
///   arrival. Values, completions, requests and `cancel()` are ignored here (so a late
///   subscription is still accepted).
/// - `subscribed`: each value becomes the time since the previous one (or the subscription);
///   the completion or `cancel()` → `terminated`.
/// - `terminated`: nothing is held.
@usableFromInline
struct MeasureIntervalStateMachine<Downstream: Subscriber, Time: Strideable> where Downstream.Input == Time.Stride {
    @usableFromInline
    enum Phase {
        case awaitingSubscription(Box<Downstream>)
        /// `last` is when the previous value, or the subscription, arrived.
        case subscribed(upstream: any Subscription, downstream: Box<Downstream>, last: Time)
        case terminated
    }

    /// A measured value to deliver, outside the lock.
    @usableFromInline
    struct Measured {
        @usableFromInline
        let interval: Time.Stride
        @usableFromInline
        let downstream: Box<Downstream>
        /// Asked for the demand the downstream returns.
        @usableFromInline
        let upstream: any Subscription

        @inlinable
        init(interval: Time.Stride, downstream: Box<Downstream>, upstream: any Subscription) {
            self.interval = interval
            self.downstream = downstream
            self.upstream = upstream
        }
    }

    @usableFromInline
    var phase: Phase

    @inlinable
    init(downstream: Downstream) {
        phase = .awaitingSubscription(Box(downstream))
    }

    /// Whether the upstream subscription is still awaited: only then does its arrival read the
    /// clock, as in Combine.
    @inlinable
    var awaitsSubscription: Bool {
        if case .awaitingSubscription = phase { true } else { false }
    }

    /// Whether a value arriving now is measured: only then does it read the clock, as in
    /// Combine.
    @inlinable
    var isSubscribed: Bool {
        if case .subscribed = phase { true } else { false }
    }

    // MARK: Events

    /// The upstream subscription arrived at `now`: the downstream to hand the subscription to, or
    /// nil when it must be cancelled (a second subscription).
    @inlinable
    mutating func receiveSubscription(_ upstream: any Subscription, now: Time) -> Box<Downstream>? {
        guard case .awaitingSubscription(let downstream) = phase else { return nil }
        phase = .subscribed(upstream: upstream, downstream: downstream, last: now)
        return downstream
    }

    /// A value arrived at `now`: what to deliver, while subscribed.
    @inlinable
    mutating func receiveValue(now: Time) -> Measured? {
        guard case .subscribed(let upstream, let downstream, let last) = phase else { return nil }
        phase = .subscribed(upstream: upstream, downstream: downstream, last: now)
        return Measured(interval: last.distance(to: now), downstream: downstream, upstream: upstream)
    }

    /// The completion arrived: the downstream to complete, while subscribed.
    @inlinable
    mutating func receiveCompletion() -> Box<Downstream>? {
        guard case .subscribed(_, let downstream, _) = phase else { return nil }
        phase = .terminated
        return downstream
    }

    /// The downstream's request: the upstream to forward it to, while subscribed.
    @inlinable
    func request() -> (any Subscription)? {
        guard case .subscribed(let upstream, _, _) = phase else { return nil }
        return upstream
    }

    /// What a cancel does once the lock is released.
    @usableFromInline
    enum CancelAction {
        /// Not subscribed: nothing.
        case none
        /// Cancel `upstream`; `released` (the downstream) is let go outside the lock.
        case cancel(any Subscription, released: Box<Downstream>)
    }

    /// The downstream cancelled: the upstream to cancel and the downstream to let go of, while
    /// subscribed.
    @inlinable
    mutating func cancel() -> CancelAction {
        guard case .subscribed(let upstream, let downstream, _) = phase else { return .none }
        phase = .terminated
        return .cancel(upstream, released: downstream)
    }
}
