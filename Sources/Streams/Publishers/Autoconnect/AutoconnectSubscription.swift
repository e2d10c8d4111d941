/// What `autoconnect` hands its subscriber: a thin wrapper of the upstream's subscription that
/// reports the same description and `combineIdentifier`, forwards every request unchanged, and
/// on its first `cancel()` tells the ``Publishers/Autoconnect`` that one subscriber left (the
/// last one disconnects it) before cancelling the upstream's subscription. Cancelling again only
/// cancels the upstream's subscription again.
@usableFromInline
// Unchecked: it holds the upstream's subscription, which need not be Sendable.
final class AutoconnectSubscription<Upstream: ConnectablePublisher>: Subscription, CustomStringConvertible,
    CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    let upstream: any Subscription
    @usableFromInline
    let state: LockedState<AutoconnectSubscriptionStateMachine>

    @inlinable
    init(upstream: any Subscription, parent: Publishers.Autoconnect<Upstream>) {
        self.upstream = upstream
        state = LockedState(AutoconnectSubscriptionStateMachine(parent: parent))
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        upstream.request(demand)
    }

    @inlinable
    func cancel() {
        if let parent = state.withLock({ $0.cancel() }) {
            unsafeDowncast(parent, to: Publishers.Autoconnect<Upstream>.self).subscriberLeft()
        }
        upstream.cancel()
    }

    @usableFromInline
    var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }

    @usableFromInline
    var description: String { String(describing: upstream) }

    @usableFromInline
    var playgroundDescription: Any {
        (upstream as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription ?? description
    }
}
