import Streams

/// The state of one subscription through `circuitBreaker`: a value with no lock and no callouts.
/// Each event updates it and returns what the subscription must do once the lock is released.
///
/// Phases:
/// - `awaitingSubscription(downstream, call)`: the breaker admitted the call; the upstream
///   subscription → `subscribed`; `cancel` → `terminated` (the call gives its place back).
/// - `subscribed(downstream, upstream, call)`: the first value or the completion takes the call
///   (`pending` → nil) so that its outcome is told exactly once; the completion → `terminated`;
///   `cancel` → `terminated` (a call with no outcome yet gives its place back).
/// - `terminated`: everything has been let go; values and completions are ignored.
@usableFromInline
struct CircuitBreakerCallStateMachine<Downstream: Subscriber, UpstreamFailure: Error> {
    @usableFromInline
    enum Phase {
        case awaitingSubscription(Downstream, CircuitCall<UpstreamFailure>)
        case subscribed(Downstream, upstream: any Subscription)
        case terminated
    }

    @usableFromInline
    enum ReceiveSubscriptionAction {
        /// Hand the subscription to the downstream.
        case forward(Downstream)
        /// A second subscription, or one after a cancel: cancel it.
        case cancel
    }

    @usableFromInline
    enum ReceiveValueAction {
        /// The call's first value: tell the breaker it succeeded, then deliver.
        case recordSuccessAndDeliver(Downstream, CircuitCall<UpstreamFailure>)
        case deliver(Downstream)
        case drop
    }

    @usableFromInline
    enum ReceiveCompletionAction {
        /// The call ended with no value: tell the breaker its outcome, then deliver.
        case recordAndDeliver(Downstream, CircuitCall<UpstreamFailure>)
        case deliver(Downstream)
        case none
    }

    @usableFromInline
    enum RequestAction {
        case forward(any Subscription)
        case none
    }

    @usableFromInline
    enum CancelAction {
        /// Cancel the upstream; give the call's place back if its outcome is not told yet.
        case cancel(any Subscription, release: CircuitCall<UpstreamFailure>?)
        /// Cancelled before the upstream subscription: give the call's place back.
        case release(CircuitCall<UpstreamFailure>)
        case none
    }

    @usableFromInline
    var phase: Phase
    /// The call whose outcome is not told yet (subscribed).
    @usableFromInline
    var pending: CircuitCall<UpstreamFailure>?

    @inlinable
    init(downstream: Downstream, call: CircuitCall<UpstreamFailure>) {
        phase = .awaitingSubscription(downstream, call)
    }

    @inlinable
    mutating func receiveSubscription(_ upstream: any Subscription) -> ReceiveSubscriptionAction {
        guard case .awaitingSubscription(let downstream, let call) = phase else { return .cancel }
        phase = .subscribed(downstream, upstream: upstream)
        pending = call
        return .forward(downstream)
    }

    @inlinable
    mutating func receiveValue() -> ReceiveValueAction {
        guard case .subscribed(let downstream, _) = phase else { return .drop }
        guard let call = pending else { return .deliver(downstream) }
        pending = nil
        return .recordSuccessAndDeliver(downstream, call)
    }

    @inlinable
    mutating func receiveCompletion() -> ReceiveCompletionAction {
        guard case .subscribed(let downstream, _) = phase else { return .none }
        phase = .terminated
        defer { pending = nil }
        guard let call = pending else { return .deliver(downstream) }
        return .recordAndDeliver(downstream, call)
    }

    @inlinable
    func request() -> RequestAction {
        guard case .subscribed(_, let upstream) = phase else { return .none }
        return .forward(upstream)
    }

    @inlinable
    mutating func cancel() -> CancelAction {
        switch phase {
        case .awaitingSubscription(_, let call):
            phase = .terminated
            return .release(call)
        case .subscribed(_, let upstream):
            phase = .terminated
            defer { pending = nil }
            return .cancel(upstream, release: pending)
        case .terminated:
            return .none
        }
    }
}
