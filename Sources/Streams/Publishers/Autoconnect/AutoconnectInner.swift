/// What `autoconnect` subscribes to its connectable upstream for each subscriber. It passes
/// everything through unchanged, in any state, without a lock; each subscription from the
/// upstream reaches the subscriber wrapped in an ``AutoconnectSubscription``, which counts the
/// subscriber out when it cancels.
@usableFromInline
// Unchecked: it holds the downstream and the publisher, which need not be Sendable.
final class AutoconnectInner<Upstream: ConnectablePublisher, Downstream: Subscriber>: Subscriber,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline
    let parent: Publishers.Autoconnect<Upstream>
    @usableFromInline
    let downstream: Downstream

    @inlinable
    init(parent: Publishers.Autoconnect<Upstream>, downstream: Downstream) {
        self.parent = parent
        self.downstream = downstream
    }

    @inlinable
    func receive(subscription: any Subscription) {
        downstream.receive(subscription: AutoconnectSubscription(upstream: subscription, parent: parent))
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        downstream.receive(completion: completion)
    }

    @usableFromInline
    var description: String { "Autoconnect" }

    @usableFromInline
    var customMirror: Mirror {
        Mirror(self, children: ["parent": parent, "downstream": downstream])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
