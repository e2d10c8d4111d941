import Streams

/// What a ``HedgeSubscription`` holds while it runs, in one reference that its state machine
/// lets go of when it terminates: the configuration (the publisher to subscribe to, the
/// predicate, the scheduler, the budget and the breaker) and the downstream.
@usableFromInline
final class HedgeResources<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber> {
    @usableFromInline
    let configuration: Publishers.Hedge<Upstream, Context>
    @usableFromInline
    let downstream: Downstream

    @inlinable
    init(configuration: Publishers.Hedge<Upstream, Context>, downstream: Downstream) {
        self.configuration = configuration
        self.downstream = downstream
    }
}
