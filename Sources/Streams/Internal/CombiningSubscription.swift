/// How a `CombiningSubscription` combines its upstreams' values.
@usableFromInline
enum CombiningMode {
    /// `combineLatest`: keep the latest value of each upstream; every new value, once all have
    /// one, makes an output (dropped when there is no demand for it). Finishes when all finish.
    case latest
    /// `zip`: queue each upstream's values; whenever all queues have one, pop one from each.
    /// Finishes when an upstream has finished and its queue is empty.
    case zip
}

/// The subscription behind `combineLatest` and `zip`, for any number of upstreams of any types
/// with one failure type. Values are kept type-erased per upstream and `combine` builds the
/// output tuple. Downstream requests are forwarded to every upstream; outputs reach the
/// downstream serially through an ``Outlet``.
@usableFromInline
final class CombiningSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    let name: String
    @usableFromInline
    let mode: CombiningMode
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    @exclusivity(unchecked)
    var outlet: Outlet<Downstream>!

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var combine: (([Any]) -> Downstream.Input)?
    @usableFromInline
    @exclusivity(unchecked)
    var upstreams: [(any Subscription)?]
    @usableFromInline
    @exclusivity(unchecked)
    var values: [[Any]]
    @usableFromInline
    @exclusivity(unchecked)
    var finished: [Bool]
    @usableFromInline
    @exclusivity(unchecked)
    var requested = Subscribers.Demand.none
    @usableFromInline
    @exclusivity(unchecked)
    var terminated = false

    @inlinable
    init(name: String, mode: CombiningMode, count: Int, downstream: Downstream, combine: @escaping ([Any]) -> Downstream.Input) {
        self.name = name
        self.mode = mode
        self.combine = combine
        upstreams = Array(repeating: nil, count: count)
        values = Array(repeating: [], count: count)
        finished = Array(repeating: false, count: count)
        outlet = Outlet(downstream: downstream, onDemand: { [unowned self] in self.forward($0) })
    }

    /// Hands the subscription downstream, then subscribes to the upstreams.
    @inlinable
    func start(_ subscribeAll: (CombiningSubscription) -> Void) {
        guard let downstream = outlet.lock.withLockUnchecked({ outlet.downstream }) else { return }
        downstream.receive(subscription: self)
        subscribeAll(self)
    }

    /// Subscribes to `publisher` as upstream number `index`.
    @inlinable
    func attach<P: Publisher>(_ publisher: P, at index: Int) where P.Failure == Downstream.Failure {
        publisher.receive(subscriber: Link<P.Output>(parent: self, index: index))
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

    /// Records `value` and sends the output it completes. Recording, making the output and
    /// delivering it are one serial step (the outlet's turn; the recording runs under the
    /// outlet's lock, then this one's), so that outputs reach the downstream in the order they
    /// were made: `combineLatest` never delivers an older combination after a newer one.
    @inlinable
    func receive(_ value: Any, index: Int) {
        outlet.send(dropWithoutDemand: mode == .latest) {
            lock.withLockUnchecked { () -> Downstream.Input? in
                guard !terminated, let combine else { return nil }
                switch mode {
                case .latest:
                    values[index] = [value]
                    guard values.allSatisfy({ !$0.isEmpty }) else { return nil }
                    return combine(values.map { $0[0] })
                case .zip:
                    values[index].append(value)
                    guard values.allSatisfy({ !$0.isEmpty }) else { return nil }
                    let heads = values.map { $0[0] }
                    for upstream in values.indices { values[upstream].removeFirst() }
                    return combine(heads)
                }
            }
        }
        if mode == .zip { finishZipIfDone() }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>, index: Int) {
        switch completion {
        case .finished:
            switch mode {
            case .latest:
                let allFinished = lock.withLockUnchecked { () -> Bool in
                    guard !terminated else { return false }
                    finished[index] = true
                    upstreams[index] = nil
                    terminated = finished.allSatisfy { $0 }
                    return terminated
                }
                if allFinished { outlet.complete(.finished) }
            case .zip:
                lock.withLockUnchecked {
                    finished[index] = true
                    upstreams[index] = nil
                }
                finishZipIfDone()
            }
        case .failure:
            guard let others = terminate() else { return }
            for other in others { other.cancel() }
            outlet.complete(completion)
        }
    }

    /// For zip: finishes when an upstream has finished with nothing left in its queue, since no
    /// more outputs can be made.
    @inlinable
    func finishZipIfDone() {
        let done = lock.withLockUnchecked {
            !terminated && zip(finished, values).contains { $0 && $1.isEmpty }
        }
        guard done, let others = terminate() else { return }
        for other in others { other.cancel() }
        outlet.complete(.finished)
    }

    /// Marks the subscription terminated and hands out the live upstreams, or nil if it already
    /// was.
    @inlinable
    func terminate() -> [any Subscription]? {
        lock.withLockUnchecked { () -> [any Subscription]? in
            guard !terminated else { return nil }
            terminated = true
            defer {
                upstreams = upstreams.map { _ in nil }
                values = values.map { _ in [] }
                combine = nil
            }
            return upstreams.compactMap { $0 }
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // As in Combine, `.none` is accepted and changes nothing.
        guard demand > 0 else { return }
        outlet.request(demand)
        forward(demand)
    }

    /// Asks every upstream for `demand` more.
    @inlinable
    func forward(_ demand: Subscribers.Demand) {
        let upstreams = lock.withLockUnchecked { () -> [any Subscription] in
            guard !terminated else { return [] }
            requested += demand
            return self.upstreams.compactMap { $0 }
        }
        for upstream in upstreams {
            upstream.request(demand)
        }
    }

    @inlinable
    func cancel() {
        let upstreams = terminate()
        outlet.cancel()
        for upstream in upstreams ?? [] { upstream.cancel() }
    }

    @usableFromInline
    var description: String { name }

    @usableFromInline
    var customMirror: Mirror {
        Mirror(self, children: ["downstream": outlet.lock.withLockUnchecked { outlet.downstream } as Any])
    }

    @usableFromInline
    var playgroundDescription: Any { description }

    /// Subscribes to one upstream on behalf of the parent.
    @usableFromInline
    struct Link<Input>: Subscriber, CustomStringConvertible {
        @usableFromInline
        typealias Failure = Downstream.Failure

        @usableFromInline
        let parent: CombiningSubscription
        @usableFromInline
        let index: Int
        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(parent: CombiningSubscription, index: Int) {
            self.parent = parent
            self.index = index
        }

        @inlinable
        func receive(subscription: any Subscription) {
            parent.receive(subscription: subscription, index: index)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            parent.receive(input, index: index)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Downstream.Failure>) {
            parent.receive(completion: completion, index: index)
        }

        @usableFromInline
        var description: String { parent.name }
    }
}
