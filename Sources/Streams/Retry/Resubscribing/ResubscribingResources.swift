/// What a ``ResubscribingSubscription`` holds while it runs, in one reference that its state
/// machine lets go of when it terminates: the publisher to subscribe to, the downstream and the
/// policy (with the closures they capture).
@usableFromInline
final class ResubscribingResources<Upstream: Publisher, Downstream: Subscriber, Policy: ResubscribePolicy> {
    @usableFromInline
    let upstream: Upstream
    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let policy: Policy

    @inlinable
    init(upstream: Upstream, downstream: Downstream, policy: Policy) {
        self.upstream = upstream
        self.downstream = downstream
        self.policy = policy
    }
}
