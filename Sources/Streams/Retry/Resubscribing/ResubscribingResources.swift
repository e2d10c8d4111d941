/// What a ``ResubscribingSubscription`` holds while it runs, in one reference that its state
/// machine lets go of when it terminates: the publisher to subscribe to, the downstream and the
/// policy (with the closures they capture).
@usableFromInline
package final class ResubscribingResources<Upstream: Publisher, Downstream: Subscriber, Policy: ResubscribePolicy> {
    @usableFromInline
    package let upstream: Upstream
    @usableFromInline
    package let downstream: Downstream
    @usableFromInline
    package let policy: Policy

    @inlinable
    package init(upstream: Upstream, downstream: Downstream, policy: Policy) {
        self.upstream = upstream
        self.downstream = downstream
        self.policy = policy
    }
}
