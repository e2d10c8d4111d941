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
/// `first`, `last`, `reduce`, `count()`, `min`, `max`, `contains`, `allSatisfy` and their `try`
/// forms.
///
/// It asks upstream for everything at once; `step` folds each value into state the closures
/// share, and `result` reads the final value (nil: finish without one) once upstream finishes or
/// `step` says `.done`. As in Combine, the result and `.finished` (also a bare `.finished`) wait
/// until the downstream has asked; a failure does not. The phases are
/// ``ReducingStateMachine``'s: a `cancel()` before the upstream subscription is a no-op, so a
/// subscription that arrives later is accepted and asked for everything; `request(.none)` traps.
@usableFromInline
// Unchecked: it holds `initial`, which need not be Sendable.
final class ReducingSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    typealias Step = (Input) -> ReduceStep<Downstream.Failure>

    /// What the subscription holds until it ends, in one object: handing a class reference out
    /// of the lock costs a retain, where handing out a closure of generic type would allocate a
    /// thunk for every value.
    @usableFromInline
    final class Core {
        @usableFromInline
        let downstream: Downstream
        @usableFromInline
        let step: Step
        @usableFromInline
        let result: () -> Downstream.Input?
        @usableFromInline
        let mapFailure: (UpstreamFailure) -> Downstream.Failure

        @inlinable
        init(
            downstream: Downstream, step: @escaping Step, result: @escaping () -> Downstream.Input?,
            mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure
        ) {
            self.downstream = downstream
            self.step = step
            self.result = result
            self.mapFailure = mapFailure
        }
    }

    @usableFromInline
    typealias Machine = ReducingStateMachine<Core, Downstream.Input>

    @usableFromInline
    let name: String
    /// What the mirror shows as `initial` (`collect()` shows only how many values it has).
    @usableFromInline
    let initial: Any?
    @usableFromInline
    let state: LockedState<Machine>

    @inlinable
    init(
        name: String,
        downstream: Downstream,
        mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
        initial: Any? = nil,
        step: @escaping Step,
        result: @escaping () -> Downstream.Input?
    ) {
        self.name = name
        self.initial = initial
        state = LockedState(Machine(core: Core(downstream: downstream, step: step, result: result, mapFailure: mapFailure)))
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard let core = state.withLock({ $0.subscription(subscription) }) else {
            subscription.cancel()
            return
        }
        core.downstream.receive(subscription: self)
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard let core = state.withLock({ $0.value() }) else { return .none }
        switch core.step(input) {
        case .more:
            break
        case .done:
            finish(core.result(), cancelUpstream: true)
        case .fail(let error):
            guard case .fail(let upstream, let deliver) = state.withLock({ $0.fail(cancelUpstream: true) }) else {
                return .none
            }
            upstream?.cancel()
            deliver?.downstream.receive(completion: .failure(error))
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        switch completion {
        case .finished:
            guard let core = state.withLock({ $0.value() }) else { return }
            finish(core.result(), cancelUpstream: false)
        case .failure(let error):
            guard case .fail(_, let core?) = state.withLock({ $0.fail(cancelUpstream: false) }) else { return }
            core.downstream.receive(completion: .failure(core.mapFailure(error)))
        }
    }

    /// The result is known: delivers it now if the downstream has asked, else holds it.
    @inlinable
    func finish(_ result: Downstream.Input?, cancelUpstream: Bool) {
        let action = state.withLock { $0.finish(result, cancelUpstream: cancelUpstream) }
        action.upstream?.cancel()
        if let core = action.deliver {
            deliver(result, to: core)
        }
    }

    @inlinable
    func deliver(_ result: Downstream.Input?, to core: Core) {
        if let result {
            _ = core.downstream.receive(result)
        }
        core.downstream.receive(completion: .finished)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "API Violation: demand must not be zero")
        if case .deliver(let core, let result) = state.withLock({ $0.request() }) {
            deliver(result, to: core)
        }
    }

    @inlinable
    func cancel() {
        // Handed out of the lock so that what it holds is released outside it.
        guard case .cancel(let upstream, _, _) = state.withLock({ $0.cancel() }) else { return }
        upstream?.cancel()
    }

    @usableFromInline
    var description: String { name }

    @usableFromInline
    var customMirror: Mirror {
        let (core, phase) = state.withLock { state in (state.core, state.phase) }
        let result = core?.result()
        let status: SubscriptionStatus =
            switch phase {
            case .awaitingSubscription: .awaitingSubscription
            case .subscribed(let upstream): .subscribed(upstream)
            case .completing, .terminated: .terminated
            }
        if name == "Collect" {
            return Mirror(self, children: ["count": (result as? any Collection)?.count ?? 0])
        }
        return Mirror(
            self,
            children: [
                "downstream": core?.downstream as Any, "result": result as Any, "initial": initial as Any,
                "status": status,
            ])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
