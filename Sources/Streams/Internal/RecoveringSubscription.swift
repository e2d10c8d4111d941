/// The subscription behind `replaceError(with:)` and `asResult()`: values pass through (changed
/// by `transform`); an upstream failure becomes one last value, `recover(error)`, sent as soon
/// as there is demand for it, followed by `.finished`.
///
/// It counts the downstream's outstanding demand, because the last value must wait for it.
@usableFromInline
final class RecoveringSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    let name: String
    @usableFromInline
    let lock = Lock()

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var status = SubscriptionStatus.awaitingSubscription
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    @usableFromInline
    @exclusivity(unchecked)
    var transform: ((Input) -> Downstream.Input)?
    @usableFromInline
    @exclusivity(unchecked)
    var recover: ((UpstreamFailure) -> Downstream.Input)?
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    /// The last value, waiting for demand.
    @usableFromInline
    @exclusivity(unchecked)
    var pendingFinal: Downstream.Input?

    @inlinable
    init(
        name: String,
        downstream: Downstream,
        transform: @escaping (Input) -> Downstream.Input,
        recover: @escaping (UpstreamFailure) -> Downstream.Input
    ) {
        self.name = name
        self.downstream = downstream
        self.transform = transform
        self.recover = recover
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let downstream = lock.withLockUnchecked { () -> Downstream? in
            guard case .awaitingSubscription = status else { return nil }
            status = .subscribed(subscription)
            return self.downstream
        }
        guard let downstream else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let current = lock.withLockUnchecked { () -> (Downstream, (Input) -> Downstream.Input)? in
            guard case .subscribed = status, let downstream, let transform else { return nil }
            demand -= 1
            return (downstream, transform)
        }
        guard let (downstream, transform) = current else { return .none }
        let additional = downstream.receive(transform(input))
        if additional > 0 {
            lock.withLockUnchecked { demand += additional }
        }
        return additional
    }

    @inlinable
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        let action = lock.withLockUnchecked { () -> FinalAction in
            guard case .subscribed = status, let downstream, let recover else { return .nothing }
            switch completion {
            case .finished:
                status = .terminal
                return .finish(downstream, takeClosures())
            case .failure(let error):
                // `recover` runs under the lock: it is always Streams' own closure (a constant
                // or `Result.failure`), never a user's.
                let final = recover(error)
                guard demand > 0 else {
                    status = .terminal
                    pendingFinal = final
                    return .nothing
                }
                status = .terminal
                return .deliver(downstream, final, takeClosures())
            }
        }
        perform(action)
    }

    /// What to do once the lock is released.
    @usableFromInline
    enum FinalAction {
        case nothing
        case finish(Downstream, Any)
        case deliver(Downstream, Downstream.Input, Any)
    }

    @inlinable
    func perform(_ action: FinalAction) {
        switch action {
        case .nothing:
            return
        case .finish(let downstream, _):
            downstream.receive(completion: .finished)
        case .deliver(let downstream, let value, _):
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
        }
    }

    /// Empties the closures and the downstream reference and returns the closures, so that they
    /// die outside the lock; call with the lock held.
    @inlinable
    func takeClosures() -> Any {
        defer {
            transform = nil
            recover = nil
            downstream = nil
        }
        return (transform, recover)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "API Violation: demand must not be zero")
        let next = lock.withLockUnchecked { () -> RequestAction in
            if let final = pendingFinal, let downstream {
                pendingFinal = nil
                return .final(.deliver(downstream, final, takeClosures()))
            }
            guard case .subscribed(let subscription) = status else { return .nothing }
            self.demand += demand
            return .forward(subscription)
        }
        switch next {
        case .forward(let subscription): subscription.request(demand)
        case .final(let action): perform(action)
        case .nothing: return
        }
    }

    /// What `request(_:)` does once the lock is released.
    @usableFromInline
    enum RequestAction {
        case forward(any Subscription)
        case final(FinalAction)
        case nothing
    }

    @inlinable
    func cancel() {
        let taken = lock.withLockUnchecked { () -> (SubscriptionStatus, Any) in
            // As in Combine, a cancel before the upstream subscription is a no-op.
            if case .awaitingSubscription = status { return (status, ()) }
            defer {
                status = .terminal
                pendingFinal = nil
            }
            return (status, takeClosures())
        }
        taken.0.cancel()
    }

    @usableFromInline
    var description: String { name }

    @usableFromInline
    var customMirror: Mirror {
        Mirror(self, children: [])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
