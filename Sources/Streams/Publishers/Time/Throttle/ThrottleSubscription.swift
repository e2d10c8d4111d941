/// The subscription of `throttle`, with its state in a ``ThrottleStateMachine``.
///
/// It reads the scheduler's `now` as Combine does: when made, when subscribed and, while
/// subscribed, per value, for the first completion and per emission of a value without the
/// completion; never after the completion or a cancel. An emission due at once goes through
/// `schedule(_:)`, a later one through `schedule(after:_:)`. The scheduled emission holds the
/// subscription weakly, as in Combine; a completion, scheduled or waiting behind a pending
/// emission, holds it until it is delivered. Whether the clock is read is decided under the lock,
/// the clock is read outside it, and the event is then applied (and ignored if the state moved on
/// meanwhile).
@usableFromInline
// Unchecked: it holds the publisher (upstream, scheduler), which need not be Sendable.
final class ThrottleSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline
    let throttle: Publishers.Throttle<Upstream, Context>
    @usableFromInline
    let state: LockedState<ThrottleStateMachine<Downstream, Context.SchedulerTimeType>>

    @inlinable
    init(downstream: Downstream, throttle: Publishers.Throttle<Upstream, Context>) {
        state = LockedState(ThrottleStateMachine(downstream: downstream))
        self.throttle = throttle
        // Combine reads the clock here; a custom scheduler sees the same calls.
        _ = throttle.scheduler.now
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard state.withLock({ $0.awaitsSubscription }) else {
            subscription.cancel()
            return
        }
        _ = throttle.scheduler.now
        guard let downstream = state.withLock({ $0.receiveSubscription(subscription) }) else {
            subscription.cancel()
            return
        }
        subscription.request(.unlimited)
        downstream.value.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard state.withLock({ $0.takesEvents }) else { return .none }
        let scheduler = throttle.scheduler
        let now = scheduler.now
        let emission = state.withLock {
            $0.receiveValue(input, now: now, interval: throttle.interval, latest: throttle.latest)
        }
        switch emission {
        case nil:
            break
        case .now?:
            scheduler.schedule { [weak self] in self?.emit() }
        case .at(let date)?:
            scheduler.schedule(after: date) { [weak self] in self?.emit() }
        }
        return .none
    }

    /// The window is over: send the pending value, and the completion queued behind it.
    @inlinable
    func emit() {
        let now = state.withLock { $0.emissionRecordsTime } ? throttle.scheduler.now : nil
        switch state.withLock({ $0.emit(now: now) }) {
        case .none:
            return
        case .deliver(let downstream, let value):
            let more = downstream.value.receive(value)
            if more > 0 { state.withLock { $0.request(more) } }
        case .deliverAndComplete(let downstream, let value, let completion, let keepAlive):
            defer { withExtendedLifetime(keepAlive) {} }
            _ = downstream.value.receive(value)
            downstream.value.receive(completion: completion)
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        guard state.withLock({ $0.takesEvents }) else { return }
        let scheduler = throttle.scheduler
        _ = scheduler.now
        guard case .schedule = state.withLock({ $0.receiveCompletion(completion, subscription: self) }) else { return }
        scheduler.schedule { [self] in
            guard case .deliver(let downstream, let completion) = state.withLock({ $0.deliverCompletion() }) else { return }
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
        guard case .cancel(let upstream, _) = state.withLock({ $0.cancel() }) else { return }
        upstream?.cancel()
    }

    @usableFromInline
    var description: String { "Throttle" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
