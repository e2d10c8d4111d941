import Streams

/// The subscription of `circuitBreaker` for a call the breaker admitted, with its state in a
/// ``CircuitBreakerCallStateMachine``.
///
/// Demand and values pass straight through. The call's first value (a failure when
/// `countsValueAsFailure` says so), or its completion when no value came, tells the breaker its
/// outcome (read against the scheduler's `now`) before it is
/// delivered; a cancel before that gives the call's place back. Once the outcome is told, values
/// take the `ValueLane`, with no lock.
@usableFromInline
// Unchecked: it holds the scheduler and `lift`, which need not be Sendable, and the lane's downstream.
final class CircuitBreakerSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
    Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Context.SchedulerTimeType: TimelineInstant, Upstream.Output == Downstream.Input {
    @usableFromInline
    let scheduler: Context
    @usableFromInline
    let lift: (Upstream.Failure) -> Downstream.Failure
    /// Whether the call's first value counts as a failed call (nil: never).
    @usableFromInline
    let countsValueAsFailure: ((Upstream.Output) -> Bool)?
    @usableFromInline
    let state: LockedState<CircuitBreakerCallStateMachine<Downstream, Upstream.Failure>>
    /// Open once the call's outcome is told.
    @usableFromInline
    let lane: ValueLane<Downstream>

    @inlinable
    init(
        downstream: Downstream, call: CircuitCall<Upstream.Failure>, countsValueAsFailure: ((Upstream.Output) -> Bool)?,
        scheduler: Context, lift: @escaping (Upstream.Failure) -> Downstream.Failure
    ) {
        self.scheduler = scheduler
        self.lift = lift
        self.countsValueAsFailure = countsValueAsFailure
        state = LockedState(CircuitBreakerCallStateMachine(downstream: downstream, call: call))
        lane = ValueLane(downstream)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        switch state.withLock({ $0.receiveSubscription(subscription) }) {
        case .forward(let downstream): downstream.receive(subscription: self)
        case .cancel: subscription.cancel()
        }
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        if let demand = lane.deliver(input) { return demand }
        return receiveWithoutLane(input)
    }

    /// A value before the lane is open (the call's first) or after it closed.
    @inlinable
    @inline(never)
    func receiveWithoutLane(_ input: Upstream.Output) -> Subscribers.Demand {
        switch state.withLock({ $0.receiveValue() }) {
        case .deliver(let downstream):
            return downstream.receive(input)
        case .recordSuccessAndDeliver(let downstream, let call):
            let failed = countsValueAsFailure?(input) ?? false
            call.breaker.record(call.ticket, failed: failed, at: scheduler.now.timelineOffset, during: call.during)
            lane.open()
            return downstream.receive(input)
        case .drop:
            return .none
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
        lane.close()
        switch state.withLock({ $0.receiveCompletion() }) {
        case .deliver(let downstream):
            downstream.receive(completion: lifted(completion))
        case .recordAndDeliver(let downstream, let call):
            let failed: Bool
            if case .failure(let error) = completion { failed = call.countsAsFailure(error) } else { failed = false }
            call.breaker.record(call.ticket, failed: failed, at: scheduler.now.timelineOffset, during: call.during)
            downstream.receive(completion: lifted(completion))
        case .none:
            break
        }
    }

    /// `completion` with the upstream's failure lifted into the downstream's failure type.
    @inlinable
    func lifted(_ completion: Subscribers.Completion<Upstream.Failure>) -> Subscribers.Completion<Downstream.Failure> {
        switch completion {
        case .finished: .finished
        case .failure(let error): .failure(lift(error))
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        if case .forward(let upstream) = state.withLock({ $0.request() }) { upstream.request(demand) }
    }

    @inlinable
    func cancel() {
        lane.close()
        switch state.withLock({ $0.cancel() }) {
        case .cancel(let upstream, let call):
            if let call { call.breaker.release(call.ticket) }
            upstream.cancel()
        case .release(let call):
            call.breaker.release(call.ticket)
        case .none:
            break
        }
    }

    @usableFromInline
    var description: String { "CircuitBreaker" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: [:]) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
