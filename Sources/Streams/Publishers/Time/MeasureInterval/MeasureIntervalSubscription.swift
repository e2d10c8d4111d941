/// The subscription of `measureInterval(using:)`: reads the scheduler's `now` when the upstream
/// subscription arrives and on each value, and delivers the time since the previous reading.
/// As in Combine, it returns `.none` for a value and requests the downstream's answer upstream,
/// and it reads the clock only while subscribed: not for a value before the subscription or
/// after its end, nor for a second subscription.
///
/// The state lives in a ``MeasureIntervalStateMachine`` behind one lock; `now` and the calls it
/// decides on are made outside it.
@usableFromInline
// Unchecked: it holds the scheduler, which need not be Sendable.
final class MeasureIntervalSubscription<Input, Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Context.SchedulerTimeType.Stride {
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let scheduler: Context
    @usableFromInline
    let state: LockedState<MeasureIntervalStateMachine<Downstream, Context.SchedulerTimeType>>

    @inlinable
    init(downstream: Downstream, scheduler: Context) {
        self.scheduler = scheduler
        state = LockedState(MeasureIntervalStateMachine(downstream: downstream))
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard state.withLock({ $0.awaitsSubscription }) else {
            subscription.cancel()
            return
        }
        let now = scheduler.now
        guard let downstream = state.withLock({ $0.receiveSubscription(subscription, now: now) }) else {
            subscription.cancel()
            return
        }
        downstream.value.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard state.withLock({ $0.isSubscribed }) else { return .none }
        let now = scheduler.now
        guard let measured = state.withLock({ $0.receiveValue(now: now) }) else { return .none }
        let demand = measured.downstream.value.receive(measured.interval)
        if demand > 0 { measured.upstream.request(demand) }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        state.withLock { $0.receiveCompletion() }?.value.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.request() }?.request(demand)
    }

    @inlinable
    func cancel() {
        // The downstream is released here, outside the lock.
        guard case .cancel(let upstream, _) = state.withLock({ $0.cancel() }) else { return }
        upstream.cancel()
    }

    @usableFromInline
    var description: String { "MeasureInterval" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
