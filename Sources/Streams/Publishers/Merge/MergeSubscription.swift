/// The subscription behind `merge`: a fixed number of upstreams of one element type, delivered
/// serially through an ``Outlet``.
///
/// Every downstream request is forwarded to every upstream (an upstream that subscribes late is
/// asked for the total so far); values beyond the downstream's demand wait in the outlet. It
/// finishes when every upstream has finished; the first failure cancels the others.
@usableFromInline
final class MergeSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    @exclusivity(unchecked)
    var outlet: Outlet<Downstream>!
    @usableFromInline
    let lock = Lock()

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var upstreams: [(any Subscription)?]
    @usableFromInline
    @exclusivity(unchecked)
    var finishedCount = 0
    @usableFromInline
    @exclusivity(unchecked)
    var requested = Subscribers.Demand.none
    @usableFromInline
    @exclusivity(unchecked)
    var terminated = false

    @inlinable
    init(downstream: Downstream, count: Int) {
        upstreams = Array(repeating: nil, count: count)
        outlet = Outlet(downstream: downstream, onDemand: { [unowned self] in self.forward($0) })
    }

    /// Hands the subscription downstream, then subscribes to every upstream in order.
    @inlinable
    func start(_ subscribeAll: (MergeSubscription) -> Void) {
        guard let downstream = outlet.lock.withLockUnchecked({ outlet.downstream }) else { return }
        downstream.receive(subscription: self)
        if upstreams.isEmpty {
            outlet.complete(.finished)
        } else {
            subscribeAll(self)
        }
    }

    /// Subscribes to `publisher` as upstream number `index`.
    @inlinable
    func attach<P: Publisher>(_ publisher: P, at index: Int)
    where P.Output == Downstream.Input, P.Failure == Downstream.Failure {
        publisher.receive(subscriber: Link(parent: self, index: index))
    }

    @inlinable
    func receive(subscription: any Subscription, index: Int) {
        let demand = lock.withLockUnchecked { () -> Subscribers.Demand? in
            guard !terminated, upstreams[index] == nil else { return nil }
            upstreams[index] = subscription
            return requested
        }
        guard let demand else {
            subscription.cancel()
            return
        }
        if demand > 0 { subscription.request(demand) }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>, index: Int) {
        switch completion {
        case .finished:
            let allFinished = lock.withLockUnchecked { () -> Bool in
                guard !terminated else { return false }
                finishedCount += 1
                upstreams[index] = nil
                if finishedCount == upstreams.count { terminated = true }
                return terminated
            }
            if allFinished { outlet.complete(.finished) }
        case .failure:
            guard let others = terminate() else { return }
            for other in others { other?.cancel() }
            outlet.complete(completion)
        }
    }

    /// Marks the subscription terminated and hands out the upstreams, or nil if it already was.
    @inlinable
    func terminate() -> [(any Subscription)?]? {
        lock.withLockUnchecked {
            guard !terminated else { return nil }
            terminated = true
            defer { upstreams = upstreams.map { _ in nil } }
            return upstreams
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // As in Combine, `.none` is accepted and changes nothing.
        guard demand > 0 else { return }
        outlet.request(demand)
        forward(demand)
    }

    /// Asks every upstream for `demand` more: the downstream asked for it, by request or by
    /// what it returned from `receive(_:)`.
    @inlinable
    func forward(_ demand: Subscribers.Demand) {
        let upstreams = lock.withLockUnchecked { () -> [(any Subscription)?] in
            guard !terminated else { return [] }
            requested += demand
            return self.upstreams
        }
        for upstream in upstreams {
            upstream?.request(demand)
        }
    }

    @inlinable
    func cancel() {
        let upstreams = terminate()
        outlet.cancel()
        for upstream in upstreams ?? [] {
            upstream?.cancel()
        }
    }

    @usableFromInline
    var description: String { "Merge" }

    @usableFromInline
    var customMirror: Mirror {
        Mirror(self, children: ["downstream": outlet.lock.withLockUnchecked { outlet.downstream } as Any])
    }

    @usableFromInline
    var playgroundDescription: Any { description }

    /// Subscribes to one upstream on behalf of the parent.
    @usableFromInline
    struct Link: Subscriber, CustomStringConvertible {
        @usableFromInline
        let parent: MergeSubscription
        @usableFromInline
        let index: Int
        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(parent: MergeSubscription, index: Int) {
            self.parent = parent
            self.index = index
        }

        @inlinable
        func receive(subscription: any Subscription) {
            parent.receive(subscription: subscription, index: index)
        }

        @inlinable
        func receive(_ input: Downstream.Input) -> Subscribers.Demand {
            parent.outlet.send(input)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Downstream.Failure>) {
            parent.receive(completion: completion, index: index)
        }

        @usableFromInline
        var description: String { "Merge" }
    }
}
