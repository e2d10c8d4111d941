/// The subscription behind `flatMap`.
///
/// It asks the upstream for `maxPublishers` values, and for one more each time an inner
/// publisher finishes. Each inner publisher is asked for one value at a time (a delivered value
/// asks it for the next), or for unlimited values once the downstream has asked for unlimited.
/// Values reach the downstream serially through an ``Outlet``.
@usableFromInline
final class FlatMapSubscription<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where
    NewPublisher.Output == Downstream.Input, NewPublisher.Failure == Upstream.Failure,
    Upstream.Failure == Downstream.Failure
{
    @usableFromInline
    let maxPublishers: Subscribers.Demand
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    @exclusivity(unchecked)
    var outlet: Outlet<Downstream>!

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var transform: ((Upstream.Output) -> NewPublisher)?
    @usableFromInline
    @exclusivity(unchecked)
    var outer = SubscriptionStatus.awaitingSubscription
    @usableFromInline
    @exclusivity(unchecked)
    var outerFinished = false
    /// Inner publishers by index; `.awaitingSubscription` until their subscription arrives.
    /// (`SubscriptionStatus` rather than an optional existential, whose copies go through the
    /// generic `Optional` value witnesses.)
    @usableFromInline
    @exclusivity(unchecked)
    var inners: [Int: SubscriptionStatus] = [:]
    @usableFromInline
    @exclusivity(unchecked)
    var nextIndex = 0
    @usableFromInline
    @exclusivity(unchecked)
    var unlimitedDownstream = false
    @usableFromInline
    @exclusivity(unchecked)
    var terminated = false

    @inlinable
    init(downstream: Downstream, maxPublishers: Subscribers.Demand, transform: @escaping (Upstream.Output) -> NewPublisher) {
        self.maxPublishers = maxPublishers
        self.transform = transform
        outlet = Outlet(downstream: downstream, onDelivered: { [unowned self] index in self.innerDelivered(index) })
    }

    // MARK: Outer

    @inlinable
    func receiveOuter(subscription: any Subscription) {
        let accepted = lock.withLockUnchecked { () -> Bool in
            guard !terminated, case .awaitingSubscription = outer else { return false }
            outer = .subscribed(subscription)
            return true
        }
        if accepted {
            subscription.request(maxPublishers)
        } else {
            subscription.cancel()
        }
    }

    @inlinable
    func receiveOuter(_ value: Upstream.Output) {
        let next = lock.withLockUnchecked { () -> (Int, (Upstream.Output) -> NewPublisher)? in
            guard !terminated, let transform else { return nil }
            defer { nextIndex += 1 }
            inners[nextIndex] = .awaitingSubscription
            return (nextIndex, transform)
        }
        guard let (index, transform) = next else { return }
        transform(value).receive(subscriber: InnerLink(parent: self, index: index))
    }

    @inlinable
    func receiveOuter(completion: Subscribers.Completion<Downstream.Failure>) {
        switch completion {
        case .finished:
            let done = lock.withLockUnchecked { () -> Bool in
                guard !terminated else { return false }
                outerFinished = true
                outer = .terminal
                return finishIfDone()
            }
            if done { outlet.complete(.finished) }
        case .failure:
            fail(completion)
        }
    }

    /// Whether everything has finished; marks the subscription terminated if so. Call with the
    /// lock held.
    @inlinable
    func finishIfDone() -> Bool {
        guard outerFinished, inners.isEmpty else { return false }
        terminated = true
        transform = nil
        return true
    }

    // MARK: Inner

    @inlinable
    func receiveInner(subscription: any Subscription, index: Int) {
        let demand = lock.withLockUnchecked { () -> Subscribers.Demand? in
            guard !terminated, case .awaitingSubscription? = inners[index] else { return nil }
            inners[index] = .subscribed(subscription)
            return unlimitedDownstream ? .unlimited : .max(1)
        }
        guard let demand else {
            subscription.cancel()
            return
        }
        subscription.request(demand)
    }

    @inlinable
    func receiveInner(completion: Subscribers.Completion<Downstream.Failure>, index: Int) {
        switch completion {
        case .finished:
            let (done, outerSubscription) = lock.withLockUnchecked { () -> (Bool, SubscriptionStatus) in
                guard !terminated, inners.removeValue(forKey: index) != nil else { return (false, .terminal) }
                let askForMore = maxPublishers == .unlimited ? .terminal : outer
                return (finishIfDone(), askForMore)
            }
            outerSubscription.request(.max(1))
            if done { outlet.complete(.finished) }
        case .failure:
            fail(completion)
        }
    }

    /// A value from inner `index` reached the downstream: ask that inner for the next one.
    @inlinable
    func innerDelivered(_ index: Int) {
        let inner = lock.withLockUnchecked { () -> SubscriptionStatus in
            guard !terminated, !unlimitedDownstream, let slot = inners[index] else { return .terminal }
            return slot
        }
        inner.request(.max(1))
    }

    // MARK: Ending

    /// Cancels the outer and every inner subscription and fails the downstream.
    @inlinable
    func fail(_ completion: Subscribers.Completion<Downstream.Failure>) {
        guard let subscriptions = terminate() else { return }
        for subscription in subscriptions { subscription.cancel() }
        outlet.complete(completion)
    }

    /// Marks the subscription terminated and hands out every live subscription, or nil if it
    /// already was.
    @inlinable
    func terminate() -> [any Subscription]? {
        lock.withLockUnchecked { () -> [any Subscription]? in
            guard !terminated else { return nil }
            terminated = true
            transform = nil
            defer {
                inners = [:]
                outer = .terminal
            }
            return inners.values.compactMap(\.subscription) + (outer.subscription.map { [$0] } ?? [])
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "API Violation: demand must not be zero")
        let inners = lock.withLockUnchecked { () -> [any Subscription] in
            guard !terminated, demand == .unlimited, !unlimitedDownstream else { return [] }
            unlimitedDownstream = true
            return self.inners.values.compactMap(\.subscription)
        }
        outlet.request(demand)
        for inner in inners {
            inner.request(.unlimited)
        }
    }

    @inlinable
    func cancel() {
        let subscriptions = terminate()
        outlet.cancel()
        for subscription in subscriptions ?? [] { subscription.cancel() }
    }

    @usableFromInline
    var description: String { "FlatMap" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }

    /// Subscribes to the upstream on behalf of the parent.
    @usableFromInline
    struct OuterLink: Subscriber, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible {
        @usableFromInline
        let parent: FlatMapSubscription

        /// The parent's: as in Combine, the upstream sees the one inner object.
        @inlinable
        var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }

        @inlinable
        init(parent: FlatMapSubscription) {
            self.parent = parent
        }

        @inlinable
        func receive(subscription: any Subscription) {
            parent.receiveOuter(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            parent.receiveOuter(input)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            parent.receiveOuter(completion: completion)
        }

        @usableFromInline
        var description: String { "FlatMap" }

        @usableFromInline
        var customMirror: Mirror { parent.customMirror }

        @usableFromInline
        var playgroundDescription: Any { description }
    }

    /// Subscribes to one inner publisher on behalf of the parent.
    @usableFromInline
    struct InnerLink: Subscriber, CustomStringConvertible {
        @usableFromInline
        let parent: FlatMapSubscription
        @usableFromInline
        let index: Int
        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(parent: FlatMapSubscription, index: Int) {
            self.parent = parent
            self.index = index
        }

        @inlinable
        func receive(subscription: any Subscription) {
            parent.receiveInner(subscription: subscription, index: index)
        }

        @inlinable
        func receive(_ input: NewPublisher.Output) -> Subscribers.Demand {
            parent.outlet.send(input, from: index)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<NewPublisher.Failure>) {
            parent.receiveInner(completion: completion, index: index)
        }

        @usableFromInline
        var description: String { "FlatMap" }
    }
}
