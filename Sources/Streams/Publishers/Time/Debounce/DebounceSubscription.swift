/// The subscription of `debounce`, with its state in a ``DebounceStateMachine``.
///
/// It asks upstream for everything. Each value becomes the pending one and arms a repeating
/// timer (reading `now`, then `minimumTolerance`, as Combine does), which then replaces the
/// previous timer; the timer is cancelled when it fires. The timer action holds the subscription
/// strongly, as in Combine, so a pending value arrives even when nothing else keeps the pipeline
/// alive. The completion goes through `schedule(_:)`, without the operator's options, as in Combine.
@usableFromInline
// Unchecked: it holds the publisher (upstream, scheduler), which need not be Sendable.
final class DebounceSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline
    let debounce: Publishers.Debounce<Upstream, Context>
    @usableFromInline
    let state: LockedState<DebounceStateMachine<Downstream>>

    @inlinable
    init(downstream: Downstream, debounce: Publishers.Debounce<Upstream, Context>) {
        state = LockedState(DebounceStateMachine(downstream: downstream))
        self.debounce = debounce
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard let downstream = state.withLock({ $0.receiveSubscription(subscription) }) else {
            subscription.cancel()
            return
        }
        downstream.value.receive(subscription: self)
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard let generation = state.withLock({ $0.receiveValue(input) }) else { return .none }
        let scheduler = debounce.scheduler
        let start = scheduler.now
        let tolerance = scheduler.minimumTolerance
        let timer = scheduler.schedule(
            after: start.advanced(by: debounce.dueTime), interval: debounce.dueTime, tolerance: tolerance,
            options: debounce.options
        ) { [self] in
            fire(generation)
        }
        state.withLock { $0.armed(generation, timer: timer) }?.cancel()
        return .none
    }

    /// The wait for value `generation` is over: send it if there is demand.
    @inlinable
    func fire(_ generation: Int) {
        switch state.withLock({ $0.fired(generation) }) {
        case .none:
            return
        case .drop(let timer):
            timer?.cancel()
        case .deliver(let downstream, let value, let timer):
            timer?.cancel()
            let more = downstream.value.receive(value)
            if more > 0 { state.withLock { $0.request(more) } }
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        let keepLast: Bool
        if case .finished = completion { keepLast = debounce.deliversPendingValueOnFinish } else { keepLast = false }
        guard case .schedule(let timer) = state.withLock({ $0.receiveCompletion(keepLast: keepLast) }) else { return }
        timer?.cancel()
        debounce.scheduler.schedule { [self] in
            guard case .deliver(let downstream, let last) = state.withLock({ $0.deliverCompletion() }) else { return }
            if let last { _ = downstream.value.receive(last) }
            downstream.value.receive(completion: completion)
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.request(demand) }
    }

    @inlinable
    func cancel() {
        // What the machine held is released here, outside the lock.
        guard case .cancel(let timer, let upstream, _, _) = state.withLock({ $0.cancel() }) else { return }
        timer?.cancel()
        upstream.cancel()
    }

    @usableFromInline
    var description: String { "Debounce" }

    @usableFromInline
    var customMirror: Mirror {
        let (downstream, demand, currentValue) = state.withLock { $0.reflected }
        return Mirror(
            self, children: ["downstream": downstream as Any, "downstreamDemand": demand, "currentValue": currentValue as Any])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
