/// The subscription behind `switchToLatest`.
///
/// It asks the upstream for unlimited publishers. A new inner publisher cancels the current one
/// first, then is subscribed and asked for the downstream's outstanding demand; each inner has a
/// generation number, so a cancelled inner's late events are ignored.
@usableFromInline
final class SwitchToLatestSubscription<Inner: Publisher, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Inner.Output == Downstream.Input, Inner.Failure == Downstream.Failure {
    @usableFromInline
    @exclusivity(unchecked)
    var outlet: Outlet<Downstream>!
    @usableFromInline
    let lock = Lock()

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var outer = SubscriptionStatus.awaitingSubscription
    @usableFromInline
    @exclusivity(unchecked)
    var outerFinished = false
    @usableFromInline
    @exclusivity(unchecked)
    var current: (any Subscription)?
    @usableFromInline
    @exclusivity(unchecked)
    var innerActive = false
    @usableFromInline
    @exclusivity(unchecked)
    var generation = 0
    @usableFromInline
    @exclusivity(unchecked)
    var terminated = false

    @inlinable
    init(downstream: Downstream) {
        outlet = Outlet(downstream: downstream, onDemand: { [unowned self] in self.forward($0) })
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
            subscription.request(.unlimited)
        } else {
            subscription.cancel()
        }
    }

    @inlinable
    func receiveOuter(_ inner: Inner) {
        let switched = lock.withLockUnchecked { () -> (Int, (any Subscription)?)? in
            guard !terminated else { return nil }
            generation += 1
            innerActive = true
            defer { current = nil }
            return (generation, current)
        }
        guard let (generation, previous) = switched else { return }
        previous?.cancel()
        inner.receive(subscriber: InnerLink(parent: self, generation: generation))
    }

    @inlinable
    func receiveOuter(completion: Subscribers.Completion<Downstream.Failure>) {
        switch completion {
        case .finished:
            let done = lock.withLockUnchecked { () -> Bool in
                guard !terminated else { return false }
                outerFinished = true
                outer = .terminal
                terminated = !innerActive
                return terminated
            }
            if done { outlet.complete(.finished) }
        case .failure:
            fail(completion)
        }
    }

    // MARK: Inner

    @inlinable
    func receiveInner(subscription: any Subscription, generation: Int) {
        let accepted = lock.withLockUnchecked { () -> Bool in
            guard !terminated, generation == self.generation, current == nil else { return false }
            current = subscription
            return true
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        let demand = outlet.unclaimedDemand
        if demand > 0 { subscription.request(demand) }
    }

    @inlinable
    func receiveInner(_ value: Inner.Output, generation: Int) {
        guard lock.withLockUnchecked({ !terminated && generation == self.generation }) else { return }
        outlet.send(value)
    }

    @inlinable
    func receiveInner(completion: Subscribers.Completion<Downstream.Failure>, generation: Int) {
        switch completion {
        case .finished:
            let done = lock.withLockUnchecked { () -> Bool in
                guard !terminated, generation == self.generation else { return false }
                innerActive = false
                current = nil
                terminated = outerFinished
                return terminated
            }
            if done { outlet.complete(.finished) }
        case .failure:
            guard lock.withLockUnchecked({ generation == self.generation }) else { return }
            fail(completion)
        }
    }

    // MARK: Ending

    /// Cancels the outer and the current inner subscription and fails the downstream.
    @inlinable
    func fail(_ completion: Subscribers.Completion<Downstream.Failure>) {
        guard let subscriptions = terminate() else { return }
        for subscription in subscriptions { subscription.cancel() }
        outlet.complete(completion)
    }

    /// Marks the subscription terminated and hands out the live subscriptions, or nil if it
    /// already was.
    @inlinable
    func terminate() -> [any Subscription]? {
        lock.withLockUnchecked { () -> [any Subscription]? in
            guard !terminated else { return nil }
            terminated = true
            defer {
                current = nil
                outer = .terminal
            }
            return [current, outer.subscription].compactMap { $0 }
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "API Violation: demand must not be zero")
        outlet.request(demand)
        forward(demand)
    }

    /// Asks the current inner publisher for `demand` more.
    @inlinable
    func forward(_ demand: Subscribers.Demand) {
        lock.withLockUnchecked { terminated ? nil : current }?.request(demand)
    }

    @inlinable
    func cancel() {
        let subscriptions = terminate()
        outlet.cancel()
        for subscription in subscriptions ?? [] { subscription.cancel() }
    }

    @usableFromInline
    var description: String { "SwitchToLatest" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }

    /// Subscribes to the upstream on behalf of the parent.
    @usableFromInline
    struct OuterLink: Subscriber, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible {
        @usableFromInline
        let parent: SwitchToLatestSubscription

        /// The parent's: as in Combine, the upstream sees the one inner object.
        @inlinable
        var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }

        @inlinable
        init(parent: SwitchToLatestSubscription) {
            self.parent = parent
        }

        @inlinable
        func receive(subscription: any Subscription) {
            parent.receiveOuter(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Inner) -> Subscribers.Demand {
            parent.receiveOuter(input)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Inner.Failure>) {
            parent.receiveOuter(completion: completion)
        }

        @usableFromInline
        var description: String { "SwitchToLatest" }

        @usableFromInline
        var customMirror: Mirror { parent.customMirror }

        @usableFromInline
        var playgroundDescription: Any { description }
    }

    /// Subscribes to one inner publisher on behalf of the parent.
    @usableFromInline
    struct InnerLink: Subscriber, CustomStringConvertible {
        @usableFromInline
        let parent: SwitchToLatestSubscription
        @usableFromInline
        let generation: Int
        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(parent: SwitchToLatestSubscription, generation: Int) {
            self.parent = parent
            self.generation = generation
        }

        @inlinable
        func receive(subscription: any Subscription) {
            parent.receiveInner(subscription: subscription, generation: generation)
        }

        @inlinable
        func receive(_ input: Inner.Output) -> Subscribers.Demand {
            parent.receiveInner(input, generation: generation)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Inner.Failure>) {
            parent.receiveInner(completion: completion, generation: generation)
        }

        @usableFromInline
        var description: String { "SwitchToLatest" }
    }
}
