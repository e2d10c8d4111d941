import Synchronization

/// What a reducing operator does with one upstream value.
@usableFromInline
enum ReduceStep<Failure: Error> {
    /// Keep going.
    case more
    /// The result is known: cancel upstream and deliver it.
    case done
    /// Cancel upstream and fail.
    case fail(Failure)
}

/// The subscription behind the operators that reduce a stream to at most one value: `collect()`,
/// `first()`, `first(where:)`, `tryFirst(where:)`.
///
/// It asks upstream for everything at once; `step` folds each value into state the closures
/// share, and `result` reads the final value (nil: finish without one) once upstream finishes or
/// `step` says `.done`. The result waits for downstream demand; a failure does not.
@usableFromInline
final class ReducingSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    typealias Step = (Input) -> ReduceStep<Downstream.Failure>

    @usableFromInline
    let name: String
    @usableFromInline
    let lock = Mutex<Void>(())

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var status = SubscriptionStatus.awaitingSubscription
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    @usableFromInline
    @exclusivity(unchecked)
    var step: Step?
    @usableFromInline
    @exclusivity(unchecked)
    var result: (() -> Downstream.Input?)?
    @usableFromInline
    @exclusivity(unchecked)
    var mapFailure: ((UpstreamFailure) -> Downstream.Failure)?
    @usableFromInline
    @exclusivity(unchecked)
    var hasDemand = false
    @usableFromInline
    @exclusivity(unchecked)
    var resultReady = false

    @inlinable
    init(
        name: String,
        downstream: Downstream,
        mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
        step: @escaping Step,
        result: @escaping () -> Downstream.Input?
    ) {
        self.name = name
        self.downstream = downstream
        self.mapFailure = mapFailure
        self.step = step
        self.result = result
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
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard let step = lock.withLockUnchecked({ () -> Step? in
            guard case .subscribed = status else { return nil }
            return step
        }) else { return .none }
        switch step(input) {
        case .more:
            break
        case .done:
            let upstream = lock.withLockUnchecked { () -> (any Subscription)? in
                defer { status = .terminal }
                return status.subscription
            }
            upstream?.cancel()
            resultIsReady()
        case .fail(let error):
            fail(error)
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        let mapFailure = lock.withLockUnchecked { () -> ((UpstreamFailure) -> Downstream.Failure)? in
            guard case .subscribed = status else { return nil }
            status = .terminal
            return self.mapFailure
        }
        guard let mapFailure else { return }
        switch completion {
        case .finished: resultIsReady()
        case .failure(let error): fail(mapFailure(error))
        }
    }

    /// Cancels upstream (if still subscribed) and sends the failure at once.
    @inlinable
    func fail(_ error: Downstream.Failure) {
        let taken = lock.withLockUnchecked { () -> ((any Subscription)?, References) in
            defer { status = .terminal }
            return (status.subscription, takeReferences())
        }
        taken.0?.cancel()
        taken.1.downstream?.receive(completion: .failure(error))
    }

    /// Marks the result ready and delivers it if the downstream has asked for it.
    @inlinable
    func resultIsReady() {
        let taken = lock.withLockUnchecked { () -> References? in
            resultReady = true
            return hasDemand ? takeReferences() : nil
        }
        if let taken { deliver(taken) }
    }

    @inlinable
    func deliver(_ references: References) {
        guard let downstream = references.downstream, let result = references.result else { return }
        if let value = result() {
            _ = downstream.receive(value)
        }
        downstream.receive(completion: .finished)
    }

    /// The references this subscription holds, handed out so that they die outside the lock.
    @usableFromInline
    struct References {
        @usableFromInline
        let downstream: Downstream?
        @usableFromInline
        let result: (() -> Downstream.Input?)?
        @usableFromInline
        let closures: Any

        @inlinable
        init(downstream: Downstream?, result: (() -> Downstream.Input?)?, closures: Any) {
            self.downstream = downstream
            self.result = result
            self.closures = closures
        }
    }

    /// Empties the references and returns them; call with the lock held.
    @inlinable
    func takeReferences() -> References {
        defer {
            downstream = nil
            step = nil
            result = nil
            mapFailure = nil
        }
        return References(downstream: downstream, result: result, closures: (step, mapFailure))
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Subscription.request requires a demand greater than .none")
        let taken = lock.withLockUnchecked { () -> References? in
            guard !hasDemand else { return nil }
            hasDemand = true
            return resultReady ? takeReferences() : nil
        }
        if let taken { deliver(taken) }
    }

    @inlinable
    func cancel() {
        let taken = lock.withLockUnchecked { () -> ((any Subscription)?, References) in
            defer {
                status = .terminal
                resultReady = false
            }
            return (status.subscription, takeReferences())
        }
        taken.0?.cancel()
    }

    @usableFromInline
    var description: String { name }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked { Mirror(self, children: ["downstream": downstream as Any]) }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
