/// The subscription behind the operators that map each upstream value to at most one value and
/// may end the stream early: `tryMap`, `tryFilter`, `tryCompactMap`, `scan`, `tryScan`,
/// `removeDuplicates`, `drop(while:)`, `prefix`, `prefix(while:)`, `decode`, `encode`, ...
///
/// `step` decides what happens to each value (see ``StageStep``); it may keep per-subscription
/// state in what it captures, since upstream never calls `receive(_:)` concurrently. Demand
/// passes through; a dropped value asks upstream for one more. The lock guards only the
/// ``StageStateMachine``: `step` and the downstream always run outside it.
///
/// `kind` carries Combine's per-operator rules at the edges: see ``StageKind``. A `cancel()`
/// before the upstream subscription is a no-op (the late subscription is accepted), except in
/// the filter family, where it ends the stage.
///
/// Unchecked `Sendable`: `mirroredState` is a closure that is not `Sendable` (it reads what
/// `step` captures, for the mirror).
@usableFromInline
package final class StageSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    package typealias Step = (Input) -> StageStep<Downstream.Input, Downstream.Failure>

    /// What the stage holds while it is live, in one object: handing a class reference out of
    /// the lock costs a retain, where handing out a closure of generic type would allocate.
    @usableFromInline
    package final class Core {
        @usableFromInline
        package let downstream: Downstream
        @usableFromInline
        package let step: Step
        @usableFromInline
        package let mapFailure: (UpstreamFailure) -> Downstream.Failure

        @inlinable
        package init(downstream: Downstream, step: @escaping Step, mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure)
        {
            self.downstream = downstream
            self.step = step
            self.mapFailure = mapFailure
        }
    }

    /// Read outside the lock on the edges; the machine keeps its own copy.
    @usableFromInline
    package let kind: StageKind
    /// Reads the operator's running state (`last`, `result`) for the mirror.
    @usableFromInline
    package let mirroredState: (() -> Any)?
    @usableFromInline
    package let state: LockedState<StageStateMachine<Core>>

    @inlinable
    package init(
        kind: StageKind,
        downstream: Downstream,
        mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
        state: (() -> Any)? = nil,
        step: @escaping Step
    ) {
        self.kind = kind
        mirroredState = state
        self.state = LockedState(
            StageStateMachine(kind: kind, core: Core(downstream: downstream, step: step, mapFailure: mapFailure)))
    }

    @inlinable
    package func receive(subscription: any Subscription) {
        guard let core = state.withLock({ $0.receiveSubscription(subscription) }) else {
            subscription.cancel()
            return
        }
        core.downstream.receive(subscription: self)
    }

    @inlinable
    package func receive(_ input: Input) -> Subscribers.Demand {
        guard let core = state.withLock({ $0.subscribedCore }) else { return receiveBeforeSubscription(input) }
        return process(input, with: core)
    }

    /// A value from an upstream that has not sent its subscription yet: Combine's rule differs
    /// per operator (see ``StageKind``).
    @inlinable
    @inline(never)
    package func receiveBeforeSubscription(_ input: Input) -> Subscribers.Demand {
        guard let core = state.withLock({ $0.waitingCore }) else { return .none }
        precondition(!kind.isFilterFamily, "Invalid state: Received value before receiving subscription")
        if kind.ignoresValuesBeforeSubscription { return .none }
        return process(input, with: core)
    }

    @inlinable
    @inline(__always)
    package func process(_ input: Input, with core: Core) -> Subscribers.Demand {
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
    package func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        switch state.withLock({ $0.receiveCompletion() }) {
        case .forward(let core):
            core.downstream.receive(completion: completion.mapError(core.mapFailure))
        case .ignore:
            break
        case .trap:
            preconditionFailure("Invalid state: Received completion before receiving subscription")
        }
    }

    /// Cancels upstream and sends `completion`, unless already terminated.
    @inlinable
    package func end(with completion: Subscribers.Completion<Downstream.Failure>) {
        guard case .complete(let upstream, let core) = state.withLock({ $0.end() }) else { return }
        upstream.cancel()
        core.downstream.receive(completion: completion)
    }

    @inlinable
    package func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0 || !kind.trapsOnZeroDemand, "API Violation: demand must not be zero")
        switch state.withLock({ $0.request() }) {
        case .forward(let upstream):
            upstream.request(demand)
        case .ignore:
            break
        case .trap:
            preconditionFailure("Invalid state: Received request before sending subscription")
        }
    }

    @inlinable
    package func cancel() {
        // The core is handed out of the lock so that what it holds is released outside it.
        switch state.withLock({ $0.cancel() }) {
        case .cancelUpstream(let upstream, let released):
            upstream.cancel()
            withExtendedLifetime(released) {}
        case .release(let released):
            withExtendedLifetime(released) {}
        case .none:
            break
        }
    }

    @usableFromInline
    package var description: String { kind.description }

    @usableFromInline
    package var customMirror: Mirror {
        let (core, upstream) = state.withLock { ($0.subscribedCore ?? $0.waitingCore, $0.upstream) }
        let (downstream, finished) = (core?.downstream, core == nil)
        // The operator's own value as it keeps it (`last` is an `Output?`, `result` an `Output`),
        // not wrapped in one more `Optional`; read only here, so values pay nothing for it.
        let running: Any = mirroredState?() ?? Optional<Any>.none as Any
        switch kind {
        case .tryFilter, .tryCompactMap, .prefixWhile, .tryPrefixWhile:
            return Mirror(self, children: ["downstream": downstream as Any])
        case .removeDuplicates, .tryRemoveDuplicates:
            return Mirror(self, children: ["downstream": downstream as Any, "last": running])
        case .tryScan:
            return Mirror(
                self, children: ["downstream": downstream as Any, "status": upstream as Any, "result": running])
        case .encode, .decode:
            return Mirror(
                self,
                children: ["downstream": downstream as Any, "finished": finished, "upstreamSubscription": upstream as Any])
        case .tryMap, .output, .dropWhile, .tryDropWhile:
            return Mirror(self, children: [])
        }
    }

    @usableFromInline
    package var playgroundDescription: Any { description }
}
