
/// The subscription behind the operators that map each upstream value to at most one value and
/// may end the stream early: `tryMap`, `tryFilter`, `tryCompactMap`, `scan`, `tryScan`,
/// `removeDuplicates`, `dropFirst`, `drop(while:)`, `prefix`, `prefix(while:)`, `decode`, `encode`, ...
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

    /// What the stage holds while it is live, in one object: handing a class reference out of
    /// the lock costs a retain, where handing out a closure of generic type would allocate.
    @usableFromInline
    final class Core {
        @usableFromInline
        let downstream: Downstream
        @usableFromInline
        let step: Step
        @usableFromInline
        let mapFailure: (UpstreamFailure) -> Downstream.Failure

        @inlinable
        init(downstream: Downstream, step: @escaping Step, mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure) {
            self.downstream = downstream
            self.step = step
            self.mapFailure = mapFailure
        }
    }

    @usableFromInline
    let name: String
    @usableFromInline
    let lock = Lock()

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var status = SubscriptionStatus.awaitingSubscription
    /// Nil once the stage has completed or been cancelled.
    @usableFromInline
    @exclusivity(unchecked)
    var core: Core?

    @inlinable
    init(
        name: String,
        downstream: Downstream,
        mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
        step: @escaping Step
    ) {
        self.name = name
        core = Core(downstream: downstream, step: step, mapFailure: mapFailure)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let accepted = lock.withLockUnchecked { () -> Bool in
            guard case .awaitingSubscription = status, core != nil else { return false }
            status = .subscribed(subscription)
            return true
        }
        guard accepted, let core = lock.withLockUnchecked({ core }) else {
            subscription.cancel()
            return
        }
        core.downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard let core = lock.withLockUnchecked({ core }) else { return .none }
        switch core.step(input) {
        case .emit(let output):
            return core.downstream.receive(output)
        case .drop:
            return .max(1)
        case .emitAndFinish(let output):
            _ = core.downstream.receive(output)
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
        let core = lock.withLockUnchecked { () -> Core? in
            guard case .subscribed = status else { return nil }
            status = .terminal
            defer { self.core = nil }
            return self.core
        }
        guard let core else { return }
        core.downstream.receive(completion: completion.mapError(core.mapFailure))
    }

    /// Cancels upstream and sends `completion`, unless already terminated.
    @inlinable
    func end(with completion: Subscribers.Completion<Downstream.Failure>) {
        let taken = lock.withLockUnchecked { () -> (any Subscription, Core)? in
            guard case .subscribed(let subscription) = status, let core else { return nil }
            status = .terminal
            self.core = nil
            return (subscription, core)
        }
        guard let (subscription, core) = taken else { return }
        subscription.cancel()
        core.downstream.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Subscription.request requires a demand greater than .none")
        lock.withLockUnchecked { status }.request(demand)
    }

    @inlinable
    func cancel() {
        // The core is handed out of the lock so that what it holds is released outside it.
        let taken = lock.withLockUnchecked { () -> (SubscriptionStatus, Core?) in
            defer {
                status = .terminal
                core = nil
            }
            return (status, core)
        }
        taken.0.cancel()
    }

    @usableFromInline
    var description: String { name }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked { Mirror(self, children: ["downstream": core?.downstream as Any]) }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
