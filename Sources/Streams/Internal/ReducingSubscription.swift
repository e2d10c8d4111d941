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
/// `first`, `last`, `reduce`, `count()`, `min`, `max`, `contains`, `allSatisfy`,
/// `ignoreOutput()` and their `try` forms.
///
/// It asks upstream for everything at once; `step` folds each value into state the closures
/// share, and `result` reads the final value (nil: finish without one) once upstream finishes or
/// `step` says `.done`. A result value waits for downstream demand; a bare `.finished` and a
/// failure do not.
///
/// As in Combine, a `cancel()` before the upstream subscription is a no-op: a subscription that
/// arrives later is accepted and asked for everything.
@usableFromInline
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
    let name: String
    /// What the mirror shows as `initial` (`collect()` shows only how many values it has).
    @usableFromInline
    let initial: Any?
    @usableFromInline
    let lock = Lock()

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var status = SubscriptionStatus.awaitingSubscription
    /// Nil once the result or a failure has been sent, or the subscription cancelled.
    @usableFromInline
    @exclusivity(unchecked)
    var core: Core?
    @usableFromInline
    @exclusivity(unchecked)
    var hasDemand = false
    @usableFromInline
    @exclusivity(unchecked)
    var resultReady = false
    /// The result, once ready, while it waits for demand.
    @usableFromInline
    @exclusivity(unchecked)
    var pendingResult: Downstream.Input?

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
        core = Core(downstream: downstream, step: step, result: result, mapFailure: mapFailure)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let accepted = lock.withLockUnchecked { () -> Core? in
            guard case .awaitingSubscription = status, let core = self.core else { return nil }
            status = .subscribed(subscription)
            return core
        }
        guard let core = accepted else {
            subscription.cancel()
            return
        }
        core.downstream.receive(subscription: self)
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard
            let core = lock.withLockUnchecked({ () -> Core? in
                guard case .subscribed = status else { return nil }
                return self.core
            })
        else { return .none }
        switch core.step(input) {
        case .more:
            break
        case .done:
            let upstream = lock.withLockUnchecked { () -> SubscriptionStatus in
                defer { status = .terminal }
                return status
            }
            upstream.cancel()
            resultIsReady()
        case .fail(let error):
            fail(error)
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        let subscribed = lock.withLockUnchecked { () -> Core? in
            guard case .subscribed = status else { return nil }
            status = .terminal
            return self.core
        }
        guard let core = subscribed else { return }
        switch completion {
        case .finished: resultIsReady()
        case .failure(let error): fail(core.mapFailure(error))
        }
    }

    /// Cancels upstream (if still subscribed) and sends the failure at once.
    @inlinable
    func fail(_ error: Downstream.Failure) {
        let taken = lock.withLockUnchecked { () -> (SubscriptionStatus, Core?) in
            defer {
                status = .terminal
                core = nil
            }
            return (status, self.core)
        }
        taken.0.cancel()
        taken.1?.downstream.receive(completion: .failure(error))
    }

    /// Reads the result and delivers it now if there is nothing to send or the downstream has
    /// asked for it; otherwise keeps it for the first request.
    @inlinable
    func resultIsReady() {
        guard let core = lock.withLockUnchecked({ self.core }) else { return }
        let result = core.result()
        let deliverNow = lock.withLockUnchecked { () -> Bool in
            guard self.core != nil else { return false }
            guard result == nil || hasDemand else {
                resultReady = true
                pendingResult = result
                return false
            }
            self.core = nil
            return true
        }
        if deliverNow {
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
        let ready = lock.withLockUnchecked { () -> (Core, Downstream.Input?)? in
            guard !hasDemand else { return nil }
            hasDemand = true
            guard resultReady, let core = self.core else { return nil }
            defer {
                self.core = nil
                pendingResult = nil
            }
            return (core, pendingResult)
        }
        if let (core, result) = ready {
            deliver(result, to: core)
        }
    }

    @inlinable
    func cancel() {
        // Handed out of the lock so that what they hold is released outside it.
        let taken = lock.withLockUnchecked { () -> (SubscriptionStatus, Core?, Downstream.Input?) in
            if case .awaitingSubscription = status { return (status, nil, nil) }
            defer {
                status = .terminal
                resultReady = false
                core = nil
                pendingResult = nil
            }
            return (status, self.core, pendingResult)
        }
        taken.0.cancel()
    }

    @usableFromInline
    var description: String { name }

    @usableFromInline
    var customMirror: Mirror {
        let (core, status) = lock.withLockUnchecked { (self.core, self.status) }
        let result = core?.result()
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
