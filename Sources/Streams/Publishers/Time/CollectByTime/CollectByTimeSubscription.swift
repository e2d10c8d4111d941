/// The subscription of ``Publishers/CollectByTime``, with its state in a
/// ``CollectByTimeStateMachine``. Every delivery goes through the scheduler: the interval timer
/// and a full group each schedule a flush, which sends what demand allows. As in Combine, it asks
/// upstream for one value at a time: one once the downstream has been handed the subscription
/// (requests the downstream makes while it is handed down only add demand), one more per value
/// received (returned) and per later downstream request; demand the downstream returns for a
/// group asks upstream for nothing. Scheduled work holds the subscription strongly, so collected values are
/// delivered even when nothing else keeps the pipeline alive; completion and cancel stop the
/// timer, which lets go.
@usableFromInline
// Unchecked: it holds the publisher (upstream, scheduler), which need not be Sendable.
final class CollectByTimeSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
    Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
    @usableFromInline
    let scheduler: Context
    @usableFromInline
    let interval: Context.SchedulerTimeType.Stride
    @usableFromInline
    let options: Context.SchedulerOptions?
    @usableFromInline
    let state: LockedState<CollectByTimeStateMachine<Downstream, Upstream.Output>>

    @inlinable
    init(downstream: Downstream, collect: Publishers.CollectByTime<Upstream, Context>) {
        options = collect.options
        switch collect.strategy {
        case .byTime(let scheduler, let interval):
            (self.scheduler, self.interval) = (scheduler, interval)
            state = LockedState(CollectByTimeStateMachine(downstream: downstream, count: nil))
        case .byTimeOrCount(let scheduler, let interval, let count):
            (self.scheduler, self.interval) = (scheduler, interval)
            state = LockedState(CollectByTimeStateMachine(downstream: downstream, count: count))
        }
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard let downstream = state.withLock({ $0.receiveSubscription(subscription) }) else {
            subscription.cancel()
            return
        }
        let timer = scheduler.schedule(
            after: scheduler.now.advanced(by: interval), interval: interval,
            tolerance: scheduler.minimumTolerance, options: options
        ) { [self] in
            flush()
        }
        state.withLock { $0.armed(timer) }?.cancel()
        downstream.value.receive(subscription: self)
        state.withLock { $0.handedDown() }?.request(.max(1))
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        switch state.withLock({ $0.receiveValue(input) }) {
        case .ignore:
            return .none
        case .collected:
            return .max(1)
        case .filledGroup:
            scheduler.schedule(options: options) { [self] in flush(onlyFullGroups: true) }
            return .max(1)
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        switch state.withLock({ $0.receiveCompletion(completion) }) {
        case .ignore:
            break
        case .flush:
            scheduler.schedule(options: options) { [self] in flush() }
        case .fail(let downstream, let timer):
            timer?.cancel()
            downstream.value.receive(completion: completion)
        }
    }

    /// Sends the groups that demand allows (with `onlyFullGroups`, only full groups); then
    /// finishes if upstream has and nothing is left.
    @inlinable
    func flush(onlyFullGroups: Bool = false) {
        while true {
            switch state.withLock({ $0.flushStep(onlyFullGroups: onlyFullGroups) }) {
            case .idle:
                return
            case .send(let downstream, let group):
                let more = downstream.value.receive(group)
                if more > 0 { _ = state.withLock { $0.request(more) } }
            case .finish(let downstream, let timer):
                timer?.cancel()
                downstream.value.receive(completion: .finished)
                return
            }
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        switch state.withLock({ $0.request(demand) }) {
        case .none:
            return
        case .askUpstream(let upstream, let flushDue):
            upstream.request(.max(1))
            if flushDue { scheduler.schedule(options: options) { [self] in flush() } }
        case .flush:
            scheduler.schedule(options: options) { [self] in flush() }
        }
    }

    @inlinable
    func cancel() {
        // What the machine held is released here, outside the lock.
        guard case .cancel(let timer, let upstream, _) = state.withLock({ $0.cancel() }) else { return }
        timer?.cancel()
        upstream?.cancel()
    }

    @usableFromInline
    var description: String { "CollectByTime" }

    @usableFromInline
    var customMirror: Mirror {
        let (downstream, buffered) = state.withLock { $0.reflected }
        return Mirror(self, children: ["downstream": downstream as Any, "buffered": buffered])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
