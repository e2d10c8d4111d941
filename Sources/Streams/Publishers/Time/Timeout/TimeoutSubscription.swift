/// The subscription of `timeout`, with its state in a ``TimeoutStateMachine``.
///
/// Each (re)start of the wait arms a repeating timer, as Combine does: reading `now`, then
/// `minimumTolerance`. Values and the completion are delivered through `schedule(options:)`. The
/// timer action and the scheduled deliveries hold the subscription strongly, so a pipeline that
/// nothing else keeps alive still times out; cancelling the timer on completion, cancel or
/// timeout lets it go.
@usableFromInline
// Unchecked: it holds the publisher (upstream, scheduler), which need not be Sendable.
final class TimeoutSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline
    let timeout: Publishers.Timeout<Upstream, Context>
    @usableFromInline
    let state: LockedState<TimeoutStateMachine>

    @inlinable
    init(downstream: Downstream, timeout: Publishers.Timeout<Upstream, Context>) {
        state = LockedState(TimeoutStateMachine(downstream: Box(downstream)))
        self.timeout = timeout
    }

    /// The downstream, from the box the machine keeps as an `AnyObject`.
    @inlinable
    @inline(__always)
    func typed(_ box: AnyObject) -> Downstream {
        unsafeDowncast(box, to: Box<Downstream>.self).value
    }

    /// Arms the timer of wait number `wait`, replacing the previous one.
    @inlinable
    func arm(_ wait: Int) {
        let scheduler = timeout.scheduler
        let start = scheduler.now
        let tolerance = scheduler.minimumTolerance
        // The timer is cancelled when it first fires, so its period only has to be valid: a
        // zero or negative timeout (which fires at once) repeats every nanosecond.
        let period = max(timeout.interval, .nanoseconds(1))
        let timer = scheduler.schedule(
            after: start.advanced(by: timeout.interval), interval: period, tolerance: tolerance, options: timeout.options
        ) { [self] in
            timedOut(wait)
        }
        state.withLock { $0.armed(wait, timer: timer) }?.cancel()
    }

    /// Wait number `wait` is over: if nothing restarted it, end the stream.
    @inlinable
    func timedOut(_ wait: Int) {
        guard case .end(let timer, let upstream, let downstream) = state.withLock({ $0.timedOut(wait) }) else { return }
        timer?.cancel()
        upstream.cancel()
        typed(downstream).receive(completion: timeout.customError.map { .failure($0()) } ?? .finished)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        switch state.withLock({ $0.receiveSubscription(subscription) }) {
        case .cancel:
            subscription.cancel()
        case .arm(let downstream):
            // Combine's timer fires inside its lock on a synchronous scheduler and deadlocks; say why.
            precondition(Context.self != ImmediateScheduler.self, "timeout cannot be used with ImmediateScheduler")
            arm(1)
            typed(downstream).receive(subscription: self)
        }
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard let wait = state.withLock({ $0.receiveValue() }) else { return .none }
        arm(wait)
        timeout.scheduler.schedule(options: timeout.options) { [self] in
            guard let downstream = state.withLock({ $0.deliverValue() }) else { return }
            let demand = typed(downstream).receive(input)
            guard demand > 0 else { return }
            state.withLock { $0.demandAfterDelivery() }?.request(demand)
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        guard case .schedule(let timer) = state.withLock({ $0.receiveCompletion() }) else { return }
        timer?.cancel()
        timeout.scheduler.schedule(options: timeout.options) { [self] in
            guard let downstream = state.withLock({ $0.deliverCompletion() }) else { return }
            typed(downstream).receive(completion: completion)
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        switch state.withLock({ $0.request() }) {
        case .none:
            return
        case .forward(let upstream):
            upstream.request(demand)
        case .armAndForward(let wait, let upstream):
            arm(wait)
            upstream.request(demand)
        }
    }

    @inlinable
    func cancel() {
        // The downstream is released here, outside the lock.
        guard case .cancel(let timer, let upstream, _) = state.withLock({ $0.cancel() }) else { return }
        timer?.cancel()
        upstream.cancel()
    }

    @usableFromInline
    var description: String { "Timeout" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
