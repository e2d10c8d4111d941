import Streams

/// What a ``GatedSubscription`` waits on before it subscribes to its upstream: a concurrency
/// limiter's permit or a rate limiter's token. The gate opens by calling the subscription's
/// `gateOpened()`, at once or later, on any thread.
@usableFromInline
protocol SubscriptionGate: Sendable {
    /// The call ended (completed or cancelled) after the gate had opened for it.
    func release()
    /// The call `waiter` (the subscription's identity) was cancelled before the gate opened.
    func abandon(_ waiter: ObjectIdentifier)
}
