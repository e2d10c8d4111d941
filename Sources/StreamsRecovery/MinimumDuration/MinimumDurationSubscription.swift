import Streams

/// The subscription of `minimumDuration`: a ``MinimumDurationStateMachine`` in one
/// `LockedState`, with every call to the downstream, the upstream and the scheduler made
/// outside it. The deadline is scheduled when the upstream subscribes (unless it has passed);
/// its action holds the subscription until then.
// Unchecked: it holds the scheduler, its deadline and options, which need not be Sendable.
final class MinimumDurationSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
    Subscription,
    CustomStringConvertible, CustomReflectable, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    let state: LockedState<MinimumDurationStateMachine<Downstream>>

    private let deadline: Context.SchedulerTimeType
    private let scheduler: Context
    private let options: Context.SchedulerOptions?

    init(downstream: Downstream, deadline: Context.SchedulerTimeType, scheduler: Context, options: Context.SchedulerOptions?) {
        self.state = LockedState(MinimumDurationStateMachine(downstream: downstream))
        self.deadline = deadline
        self.scheduler = scheduler
        self.options = options
    }

    func receive(subscription: any Subscription) {
        let deadlineHasPassed = scheduler.now >= deadline
        switch state.withLock({ $0.receiveSubscription(subscription, deadlineHasPassed: deadlineHasPassed) }) {
        case .cancel:
            subscription.cancel()
        case .subscribe(let downstream, let scheduleDeadline):
            downstream.receive(subscription: self)
            guard scheduleDeadline else { return }
            scheduler.schedule(after: deadline, tolerance: scheduler.minimumTolerance, options: options) { [self] in
                deliver(state.withLock { $0.deadlineReached() })
            }
        }
    }

    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        switch state.withLock({ $0.receiveValue(input) }) {
        case .deliver(let downstream): downstream.receive(input)
        case .none: .none
        }
    }

    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        switch state.withLock({ $0.receiveCompletion(completion) }) {
        case .deliver(let downstream): downstream.receive(completion: completion)
        case .none: break
        }
    }

    /// Hands over the held values one by one, then the held completion, if any.
    private func deliver(_ first: MinimumDurationStateMachine<Downstream>.DeliveryAction) {
        var action = first
        while true {
            switch action {
            case .deliverValue(let downstream, let value):
                let more = downstream.receive(value)
                action = state.withLock { $0.delivered(more) }
            case .deliverCompletion(let downstream, let completion):
                downstream.receive(completion: completion)
                return
            case .requestUpstream(let upstream, let demand):
                upstream.request(demand)
                return
            case .none:
                return
            }
        }
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Subscription.request requires a demand greater than .none")
        state.withLock { $0.upstream }?.request(demand)
    }

    func cancel() {
        switch state.withLock({ $0.cancel() }) {
        case .cancelUpstream(let upstream, let released):
            withExtendedLifetime(released) {}
            upstream.cancel()
        case .none(let released):
            withExtendedLifetime(released) {}
        }
    }

    var description: String { "MinimumDuration" }

    var customMirror: Mirror {
        Mirror(self, children: ["downstream": state.withLock { $0.downstream } as Any])
    }
}
