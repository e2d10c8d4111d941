/// The subscription of ``Publishers/CollectByTime``, with its state in a
/// ``CollectByTimeStateMachine``. Every delivery goes through the scheduler: the interval timer
/// and a full group each schedule a flush, which sends what demand allows. As in Combine, it asks
/// upstream for one value at a time: one when subscribed, one more per value received and per
/// downstream request. Scheduled work holds the subscription strongly, so collected values are
/// delivered even when nothing else keeps the pipeline alive; completion and cancel stop the
/// timer, which lets go.
@usableFromInline
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
    let lock = Lock()
    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var state: CollectByTimeStateMachine<Downstream, Upstream.Output>

    @inlinable
    init(downstream: Downstream, collect: Publishers.CollectByTime<Upstream, Context>) {
        options = collect.options
        switch collect.strategy {
        case .byTime(let scheduler, let interval):
            (self.scheduler, self.interval) = (scheduler, interval)
            state = CollectByTimeStateMachine(downstream: downstream, count: nil)
        case .byTimeOrCount(let scheduler, let interval, let count):
            (self.scheduler, self.interval) = (scheduler, interval)
            state = CollectByTimeStateMachine(downstream: downstream, count: count)
        }
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard let downstream = lock.withLockUnchecked({ state.receiveSubscription(subscription) }) else {
            subscription.cancel()
            return
        }
        let timer = scheduler.schedule(
            after: scheduler.now.advanced(by: interval), interval: interval,
            tolerance: scheduler.minimumTolerance, options: options
        ) { [self] in
            flush()
        }
        lock.withLockUnchecked { state.armed(timer) }?.cancel()
        downstream.value.receive(subscription: self)
        subscription.request(.max(1))
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        guard let full = lock.withLockUnchecked({ state.receiveValue(input) }) else { return .none }
        if full { scheduler.schedule(options: options) { [self] in flush(onlyFullGroups: true) } }
        return .max(1)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        switch lock.withLockUnchecked({ state.receiveCompletion(completion) }) {
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
            switch lock.withLockUnchecked({ state.flushStep(onlyFullGroups: onlyFullGroups) }) {
            case .idle:
                return
            case .send(let downstream, let group):
                let more = downstream.value.receive(group)
                if more > 0 { _ = lock.withLockUnchecked { state.request(more) } }
            case .finish(let downstream, let timer):
                timer?.cancel()
                downstream.value.receive(completion: .finished)
                return
            }
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        let (upstream, flushDue) = lock.withLockUnchecked { state.request(demand) }
        upstream?.request(.max(1))
        if flushDue { scheduler.schedule(options: options) { [self] in flush() } }
    }

    @inlinable
    func cancel() {
        // What the machine held is released here, outside the lock.
        let (timer, upstream, _) = lock.withLockUnchecked { state.cancel() }
        timer?.cancel()
        upstream?.cancel()
    }

    @usableFromInline
    var description: String { "CollectByTime" }

    @usableFromInline
    var customMirror: Mirror {
        let (downstream, buffered) = lock.withLockUnchecked { state.reflected }
        return Mirror(self, children: ["downstream": downstream as Any, "buffered": buffered])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
