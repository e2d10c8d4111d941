/// The subscription behind the operators that map each upstream value to at most one value and
/// may end the stream early: `tryMap`, `tryFilter`, `tryCompactMap`, `scan`, `tryScan`,
/// `removeDuplicates`, `dropFirst`, `drop(while:)`, `prefix`, `prefix(while:)`, `decode`, `encode`, ...
///
/// `step` decides what happens to each value (see ``StageStep``); it may keep per-subscription
/// state in what it captures, since upstream never calls `receive(_:)` concurrently. Demand
/// passes through; a dropped value asks upstream for one more. The lock guards only the status
/// and the references: `step` and the downstream always run outside it.
///
/// `kind` carries Combine's per-operator rules at the edges: see ``StageKind``. A `cancel()`
/// before the upstream subscription is a no-op (the late subscription is accepted), except in
/// the filter family, where it ends the stage.
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
    let kind: StageKind
    /// Reads the operator's running state (`last`, `result`) for the mirror.
    @usableFromInline
    let state: (() -> Any)?
    @usableFromInline
    let lock = Lock()

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var status = SubscriptionStatus.awaitingSubscription
    /// Set while subscribed; nil before the subscription and once the stage has completed or
    /// been cancelled, so that the value path of a subscribed stage reads one field.
    @usableFromInline
    @exclusivity(unchecked)
    var core: Core?
    /// The core while the stage awaits its subscription.
    @usableFromInline
    @exclusivity(unchecked)
    var waitingCore: Core?

    @inlinable
    init(
        kind: StageKind,
        downstream: Downstream,
        mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
        state: (() -> Any)? = nil,
        step: @escaping Step
    ) {
        self.kind = kind
        self.state = state
        waitingCore = Core(downstream: downstream, step: step, mapFailure: mapFailure)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let accepted = lock.withLockUnchecked { () -> Bool in
            guard case .awaitingSubscription = status, let waitingCore else { return false }
            status = .subscribed(subscription)
            core = waitingCore
            self.waitingCore = nil
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
        guard let core = lock.withLockUnchecked({ core }) else { return receiveBeforeSubscription(input) }
        return process(input, with: core)
    }

    /// A value from an upstream that has not sent its subscription yet: Combine's rule differs
    /// per operator (see ``StageKind``).
    @inlinable
    @inline(never)
    func receiveBeforeSubscription(_ input: Input) -> Subscribers.Demand {
        guard let core = lock.withLockUnchecked({ waitingCore }) else { return .none }
        precondition(!kind.isFilterFamily, "Invalid state: Received value before receiving subscription")
        if kind.ignoresValuesBeforeSubscription { return .none }
        return process(input, with: core)
    }

    @inlinable
    @inline(__always)
    func process(_ input: Input, with core: Core) -> Subscribers.Demand {
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
        let (current, early) = lock.withLockUnchecked { () -> (Core?, Bool) in
            switch status {
            case .awaitingSubscription:
                return (nil, waitingCore != nil)
            case .terminal:
                return (nil, false)
            case .subscribed:
                status = .terminal
                defer { self.core = nil }
                return (self.core, false)
            }
        }
        precondition(!early || !kind.isFilterFamily, "Invalid state: Received completion before receiving subscription")
        guard let core = current else { return }
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
        precondition(demand > 0 || !kind.trapsOnZeroDemand, "API Violation: demand must not be zero")
        lock.withLockUnchecked { status }.request(demand)
    }

    @inlinable
    func cancel() {
        // The core is handed out of the lock so that what it holds is released outside it.
        let taken = lock.withLockUnchecked { () -> (SubscriptionStatus, Core?) in
            if case .awaitingSubscription = status, !kind.isFilterFamily { return (status, nil) }
            defer {
                waitingCore = nil
                status = .terminal
                core = nil
            }
            return (status, core ?? waitingCore)
        }
        taken.0.cancel()
    }

    @usableFromInline
    var description: String { kind.description }

    @usableFromInline
    var customMirror: Mirror {
        let (downstream, upstream, finished) = lock.withLockUnchecked {
            ((core ?? waitingCore)?.downstream, status.subscription, core == nil && waitingCore == nil)
        }
        let state = state?()
        switch kind {
        case .tryFilter, .tryCompactMap, .prefixWhile, .tryPrefixWhile:
            return Mirror(self, children: ["downstream": downstream as Any])
        case .removeDuplicates, .tryRemoveDuplicates:
            return Mirror(self, children: ["downstream": downstream as Any, "last": state as Any])
        case .tryScan:
            return Mirror(
                self, children: ["downstream": downstream as Any, "status": upstream as Any, "result": state as Any])
        case .encode, .decode:
            return Mirror(
                self,
                children: ["downstream": downstream as Any, "finished": finished, "upstreamSubscription": upstream as Any])
        case .tryMap, .output, .dropFirst, .dropWhile, .tryDropWhile:
            return Mirror(self, children: [])
        }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
