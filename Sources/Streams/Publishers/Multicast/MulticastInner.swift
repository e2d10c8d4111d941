import Synchronization

/// The subscription `multicast` gives each downstream subscriber, described as "Multicast". What
/// it subscribes to the subject on the downstream's behalf is its ``Link``.
///
/// Its state is a ``MulticastInnerStateMachine`` behind one lock; the inner performs the
/// machine's actions outside it. Values take no lock: the link reads one atomic flag, set while
/// the inner is subscribed and not ended, and calls the downstream directly. Demand the
/// downstream returns is requested from the subject's subscription (only when non-zero); the
/// subject itself is always returned `.none`.
///
/// The downstream is held by the link, and so by the subject until the subject lets the link go
/// (at the completion, or when the inner cancels its subscription), as with any subscriber of a
/// subject. The inner keeps the subject alive until it ends, as the subscriptions of Combine's
/// subjects do: the multicast's connection holds the subject only weakly, so a pipeline whose
/// multicast was let go keeps flowing while it has subscribers.
@usableFromInline
final class MulticastInner<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, Sendable
{
    @usableFromInline
    let state: LockedState<MulticastInnerStateMachine>
    /// Whether values pass: set under the lock as the machine enters and leaves `subscribed`.
    @usableFromInline
    let live = Atomic<Bool>(false)

    @inlinable
    init(subject: AnyObject) {
        state = LockedState(MulticastInnerStateMachine(subject: subject))
    }

    /// The subject sent its subscription: whether to hand the inner downstream (otherwise the
    /// subscription is cancelled here).
    @inlinable
    func subscriptionArrived(_ subscription: any Subscription) -> Bool {
        let accepted = state.withLock { (state) -> Bool in
            guard state.receiveSubscription(subscription) else { return false }
            live.store(true, ordering: .releasing)
            return true
        }
        if !accepted {
            subscription.cancel()
        }
        return accepted
    }

    /// The subject sent a completion: whether to forward it (the first one, while subscribed).
    @inlinable
    func completionArrived() -> Bool {
        let action = state.withLock { (state) -> MulticastInnerStateMachine.CompletionAction in
            let action = state.receiveCompletion()
            if case .forward = action { live.store(false, ordering: .releasing) }
            return action
        }
        guard case .forward(let released) = action else { return false }
        withExtendedLifetime(released) {}
        return true
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.request() }?.request(demand)
    }

    @inlinable
    func cancel() {
        let action = state.withLock { (state) -> MulticastInnerStateMachine.CancelAction in
            live.store(false, ordering: .releasing)
            return state.cancel()
        }
        guard case .end(let subscription, let subject) = action else { return }
        subscription?.cancel()
        withExtendedLifetime(subject) {}
    }

    @usableFromInline
    var description: String { "Multicast" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }

    /// What `multicast` subscribes to its subject for one downstream subscriber: it stands for
    /// the inner (same description and combine identifier) and holds the downstream.
    ///
    /// Before the subject's subscription and after the inner ended (completion or cancel),
    /// values and completions are ignored, also when a subject sends them out of contract.
    @usableFromInline
    // Unchecked: it holds the downstream, which need not be Sendable, and calls it only as the
    // subject's subscriber.
    struct Link: Subscriber, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
        @unchecked Sendable
    {
        @usableFromInline
        let inner: MulticastInner
        @usableFromInline
        let downstream: Downstream

        @inlinable
        init(inner: MulticastInner, downstream: Downstream) {
            self.inner = inner
            self.downstream = downstream
        }

        @inlinable
        var combineIdentifier: CombineIdentifier { inner.combineIdentifier }

        @inlinable
        func receive(subscription: any Subscription) {
            if inner.subscriptionArrived(subscription) {
                downstream.receive(subscription: inner)
            }
        }

        @inlinable
        func receive(_ input: Downstream.Input) -> Subscribers.Demand {
            guard inner.live.load(ordering: .acquiring) else { return .none }
            let demand = downstream.receive(input)
            if demand != .none {
                inner.request(demand)
            }
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Downstream.Failure>) {
            if inner.completionArrived() {
                downstream.receive(completion: completion)
            }
        }

        @usableFromInline
        var description: String { inner.description }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: []) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
