import Streams

/// The subscription of `attemptTimeout` and `deadline`, with its state in a
/// ``TimeLimitStateMachine``; its ``TimeLimitKind`` says which of the two it is.
///
/// Demand and values pass straight through. Once the downstream has the subscription, a timer
/// is armed on the scheduler for the limit (the repeating form of `schedule`, cancelled when it
/// first fires, because that form returns a `Cancellable`); the timer holds the subscription
/// weakly. When it fires before the upstream completes, the upstream is cancelled and the
/// downstream fails with `expiry`.
@usableFromInline
// Unchecked: it holds the scheduler, `lift` and `expiry`, which need not be Sendable.
final class TimeLimitSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input {
    @usableFromInline
    let scheduler: Context
    @usableFromInline
    let limit: Duration
    @usableFromInline
    let kind: TimeLimitKind
    /// What the downstream fails with when time is up, given whether the call is then safe to
    /// repeat.
    @usableFromInline
    let expiry: (Bool) -> Downstream.Failure
    /// The call's safety to repeat, read when time is up; nil for a deadline.
    @usableFromInline
    let safety: RepeatSafety?
    @usableFromInline
    let lift: (Upstream.Failure) -> Downstream.Failure
    @usableFromInline
    let events: ResilienceEvents
    @usableFromInline
    let state: LockedState<TimeLimitStateMachine<Downstream>>

    @inlinable
    init<Underlying: Error>(
        downstream: Downstream, scheduler: Context, limit: Duration, kind: TimeLimitKind,
        lift: @escaping (Upstream.Failure) -> Downstream.Failure, events: ResilienceEvents, safety: RepeatSafety? = nil
    ) where Downstream.Failure == ResilienceError<Underlying> {
        self.scheduler = scheduler
        self.limit = limit
        self.kind = kind
        expiry = { kind.expiry(limit, isSafeToRepeat: $0) }
        self.safety = safety
        self.lift = lift
        self.events = events
        state = LockedState(TimeLimitStateMachine(downstream: downstream))
    }

    @inlinable
    func receive(subscription: any Subscription) {
        switch state.withLock({ $0.receiveSubscription(subscription) }) {
        case .forward(let downstream):
            downstream.receive(subscription: self)
            arm()
        case .cancel:
            subscription.cancel()
        }
    }

    /// Starts the timer, unless the stream ended meanwhile.
    @inlinable
    func arm() {
        let interval: Context.SchedulerTimeType.Stride = ResilienceTime.stride(limit)
        let timer = scheduler.schedule(
            after: scheduler.now.advanced(by: interval), interval: max(interval, .nanoseconds(1)),
            tolerance: scheduler.minimumTolerance, options: nil
        ) { [weak self] in
            self?.fire()
        }
        if case .cancelTimer(let timer) = state.withLock({ $0.armed(timer) }) { timer.cancel() }
    }

    /// Time is up.
    @inlinable
    func fire() {
        guard case .timeOut(let downstream, let upstream, let timer) = state.withLock({ $0.fired() }) else { return }
        timer?.cancel()
        upstream.cancel()
        events.emit(kind.event(limit))
        downstream.receive(completion: .failure(expiry(safety?.isSafe ?? true)))
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        guard case .deliver(let downstream) = state.withLock({ $0.receiveValue() }) else { return .none }
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
        guard case .deliver(let downstream, let timer) = state.withLock({ $0.receiveCompletion() }) else { return }
        timer?.cancel()
        switch completion {
        case .finished: downstream.receive(completion: .finished)
        case .failure(let error): downstream.receive(completion: .failure(lift(error)))
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        if case .forward(let upstream) = state.withLock({ $0.request() }) { upstream.request(demand) }
    }

    @inlinable
    func cancel() {
        guard case .cancel(let upstream, let timer) = state.withLock({ $0.cancel() }) else { return }
        timer?.cancel()
        upstream.cancel()
    }

    @usableFromInline
    var description: String { kind.name }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: [:]) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
