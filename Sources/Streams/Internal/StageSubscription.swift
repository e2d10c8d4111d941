import Synchronization

/// The subscription behind the operators that map each upstream value to at most one value and
/// may end the stream early: `tryMap`, `tryFilter`, `tryCompactMap`, `scan`, `tryScan`,
/// `removeDuplicates`, `dropFirst`, `prefix`, `decode`, `encode`, ...
///
/// `step` decides what happens to each value (see ``StageStep``); it may keep per-subscription
/// state in what it captures, since upstream never calls `receive(_:)` concurrently. Demand
/// passes through; a dropped value asks upstream for one more. The lock guards only the status
/// and the references: `step` and the downstream always run outside it.
@usableFromInline
final class StageSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    typealias Step = (Input) -> StageStep<Downstream.Input, Downstream.Failure>

    @usableFromInline
    let name: String
    @usableFromInline
    let lock = Mutex<Void>(())

    // Guarded by `lock`.
    @usableFromInline
    var status = SubscriptionStatus.awaitingSubscription
    @usableFromInline
    var downstream: Downstream?
    @usableFromInline
    var step: Step?
    @usableFromInline
    var mapFailure: ((UpstreamFailure) -> Downstream.Failure)?

    @inlinable
    init(
        name: String,
        downstream: Downstream,
        mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
        step: @escaping Step
    ) {
        self.name = name
        self.downstream = downstream
        self.mapFailure = mapFailure
        self.step = step
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
        let current = lock.withLockUnchecked { () -> (Downstream, Step)? in
            guard case .subscribed = status, let downstream, let step else { return nil }
            return (downstream, step)
        }
        guard let (downstream, step) = current else { return .none }
        switch step(input) {
        case .emit(let output):
            return downstream.receive(output)
        case .drop:
            return .max(1)
        case .emitAndFinish(let output):
            _ = downstream.receive(output)
            end(with: .finished)
        case .finish:
            end(with: .finished)
        case .fail(let error):
            end(with: .failure(error))
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        let taken = lock.withLockUnchecked { () -> References? in
            guard case .subscribed = status else { return nil }
            status = .terminal
            return takeReferences()
        }
        guard let downstream = taken?.downstream, let mapFailure = taken?.mapFailure else { return }
        switch completion {
        case .finished: downstream.receive(completion: .finished)
        case .failure(let error): downstream.receive(completion: .failure(mapFailure(error)))
        }
    }

    /// Cancels upstream and sends `completion`, unless already terminated.
    @inlinable
    func end(with completion: Subscribers.Completion<Downstream.Failure>) {
        let taken = lock.withLockUnchecked { () -> (any Subscription, References)? in
            guard case .subscribed(let subscription) = status else { return nil }
            status = .terminal
            return (subscription, takeReferences())
        }
        guard let (subscription, references) = taken else { return }
        subscription.cancel()
        references.downstream?.receive(completion: completion)
    }

    /// The references this stage holds, handed out so that they die outside the lock.
    @usableFromInline
    struct References {
        @usableFromInline
        let downstream: Downstream?
        @usableFromInline
        let step: Step?
        @usableFromInline
        let mapFailure: ((UpstreamFailure) -> Downstream.Failure)?

        @inlinable
        init(downstream: Downstream?, step: Step?, mapFailure: ((UpstreamFailure) -> Downstream.Failure)?) {
            self.downstream = downstream
            self.step = step
            self.mapFailure = mapFailure
        }
    }

    /// Empties the references and returns them; call with the lock held.
    @inlinable
    func takeReferences() -> References {
        defer {
            downstream = nil
            step = nil
            mapFailure = nil
        }
        return References(downstream: downstream, step: step, mapFailure: mapFailure)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Subscription.request requires a demand greater than .none")
        lock.withLockUnchecked { status.subscription }?.request(demand)
    }

    @inlinable
    func cancel() {
        let taken = lock.withLockUnchecked { () -> ((any Subscription)?, References) in
            defer { status = .terminal }
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
