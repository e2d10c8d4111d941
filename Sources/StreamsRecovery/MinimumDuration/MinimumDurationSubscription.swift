import Streams

/// The subscription of `minimumDuration`: a ``MinimumDurationStateMachine`` behind one lock,
/// with every call to the downstream, the upstream and the scheduler made outside it.
final class MinimumDurationSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
    Subscription,
    CustomStringConvertible, CustomReflectable, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    private let lock = Lock()
    // Guarded by `lock`.
    private var machine: MinimumDurationStateMachine<Downstream.Failure, Context.SchedulerTimeType>
    private var downstream: Downstream?

    private let scheduler: Context
    private let options: Context.SchedulerOptions?

    init(downstream: Downstream, deadline: Context.SchedulerTimeType, scheduler: Context, options: Context.SchedulerOptions?) {
        self.machine = MinimumDurationStateMachine(deadline: deadline)
        self.downstream = downstream
        self.scheduler = scheduler
        self.options = options
    }

    func receive(subscription: any Subscription) {
        let downstream = lock.withLockUnchecked { () -> Downstream? in
            machine.subscribed(subscription) ? self.downstream : nil
        }
        guard let downstream else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard let downstream = lock.withLockUnchecked({ machine.passesValues ? downstream : nil }) else { return .none }
        return downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        let now = scheduler.now
        let (action, deadline, downstream) = lock.withLockUnchecked {
            let action = machine.completed(completion, at: now)
            defer { if case .deliver = action { self.downstream = nil } }
            return (action, machine.deadline, self.downstream)
        }
        switch action {
        case .deliver:
            downstream?.receive(completion: completion)
        case .holdUntilDeadline:
            scheduler.schedule(after: deadline, tolerance: scheduler.minimumTolerance, options: options) { [self] in
                deadlineReached()
            }
        case .ignore:
            break
        }
    }

    private func deadlineReached() {
        let held = lock.withLockUnchecked { () -> (Subscribers.Completion<Downstream.Failure>, Downstream)? in
            guard let completion = machine.deadlineReached(), let downstream else { return nil }
            self.downstream = nil
            return (completion, downstream)
        }
        guard let (completion, downstream) = held else { return }
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Subscription.request requires a demand greater than .none")
        lock.withLockUnchecked { machine.upstream }?.request(demand)
    }

    func cancel() {
        let (upstream, released) = lock.withLockUnchecked { () -> ((any Subscription)?, Downstream?) in
            defer { downstream = nil }
            return (machine.cancelled(), downstream)
        }
        withExtendedLifetime(released) {}
        upstream?.cancel()
    }

    var description: String { "MinimumDuration" }

    var customMirror: Mirror {
        lock.withLockUnchecked { Mirror(self, children: ["downstream": downstream as Any]) }
    }
}
