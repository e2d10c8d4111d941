import Streams

/// The subscription of `concurrencyLimited` and `rateLimited` for a call that was admitted or
/// must wait, with its state in a ``GatedStateMachine``.
///
/// The downstream gets this subscription first; the upstream is subscribed once the gate has
/// opened, and the demand gathered meanwhile is asked for when its subscription arrives. The
/// call's end (completion or cancel) releases the gate; a cancel before the gate opened
/// abandons the wait, which gives the place back at once. Once the upstream is subscribed, values
/// take the `ValueLane`, with no lock.
@usableFromInline
// Unchecked: it holds `lift`, a closure that is not Sendable, and the lane's downstream.
final class GatedSubscription<Upstream: Publisher, Gate: SubscriptionGate, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, GateWaiter, @unchecked Sendable
where Upstream.Output == Downstream.Input {
    @usableFromInline
    let lift: (Upstream.Failure) -> Downstream.Failure
    @usableFromInline
    let description: String
    @usableFromInline
    let gate: Gate
    @usableFromInline
    let state: LockedState<GatedStateMachine<Upstream, Downstream>>
    /// Open once the upstream is subscribed.
    @usableFromInline
    let lane: ValueLane<Downstream>

    @inlinable
    init(
        downstream: Downstream, upstream: Upstream, gate: Gate, lift: @escaping (Upstream.Failure) -> Downstream.Failure,
        name: String
    ) {
        self.gate = gate
        self.lift = lift
        description = name
        state = LockedState(GatedStateMachine(downstream: downstream, upstream: upstream))
        lane = ValueLane(downstream)
    }

    /// Hands this subscription to `downstream`; the upstream is subscribed once the gate opens.
    @inlinable
    func start(handingTo downstream: Downstream) {
        downstream.receive(subscription: self)
        perform(state.withLock { $0.handed() })
    }

    /// The gate opened (on any thread).
    @inlinable
    func gateOpened() {
        perform(state.withLock { $0.gateOpened() })
    }

    /// The timed wait for the gate is over: stop its timer and open the gate.
    @inlinable
    func waitEnded() {
        if case .cancel(let wait) = state.withLock({ $0.disarm() }) { wait.cancel() }
        gateOpened()
    }

    /// The gate opens on a timer: keep `wait` so that a cancel removes it.
    @inlinable
    func armed(_ wait: any Cancellable) {
        if case .cancelWait(let wait) = state.withLock({ $0.armed(wait) }) { wait.cancel() }
    }

    @inlinable
    func perform(_ action: GatedStateMachine<Upstream, Downstream>.StartAction) {
        switch action {
        case .subscribeUpstream(let upstream):
            upstream.receive(subscriber: self)
        case .release:
            gate.release()
        case .none:
            break
        }
    }

    @inlinable
    func receive(subscription: any Subscription) {
        switch state.withLock({ $0.receiveSubscription(subscription) }) {
        case .request(let upstream, let demand):
            lane.open()
            upstream.request(demand)
        case .none:
            lane.open()
        case .cancel:
            subscription.cancel()
        case .cancelAndRelease:
            subscription.cancel()
            gate.release()
        }
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        if let demand = lane.deliver(input) { return demand }
        return receiveWithoutLane(input)
    }

    /// A value before the lane is open or after it closed.
    @inlinable
    @inline(never)
    func receiveWithoutLane(_ input: Upstream.Output) -> Subscribers.Demand {
        guard case .deliver(let downstream) = state.withLock({ $0.receiveValue() }) else { return .none }
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
        lane.close()
        let downstream: Downstream
        switch state.withLock({ $0.receiveCompletion() }) {
        case .deliver(let receiver): downstream = receiver
        case .release: return gate.release()
        case .none: return
        }
        gate.release()
        switch completion {
        case .finished: downstream.receive(completion: .finished)
        case .failure(let error): downstream.receive(completion: .failure(lift(error)))
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        if case .forward(let upstream) = state.withLock({ $0.request(demand) }) { upstream.request(demand) }
    }

    @inlinable
    func cancel() {
        lane.close()
        switch state.withLock({ $0.cancel() }) {
        case .abandon(let wait):
            wait?.cancel()
            gate.abandon(ObjectIdentifier(self))
        case .release:
            gate.release()
        case .cancel(let upstream):
            upstream.cancel()
            gate.release()
        case .none:
            break
        }
    }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: [:]) }

    @usableFromInline
    var playgroundDescription: Any { description }
}

extension GatedSubscription {
    /// Attaches `downstream` through a timed gate's answer: subscribed to `upstream` at once,
    /// after `admission`'s wait on `scheduler` (a repeating schedule cancelled when it first
    /// fires, so that a cancel removes the wait), or failed with the refusal.
    @inlinable
    static func admit<Context: Scheduler, Underlying: Error>(
        _ admission: GateAdmission, downstream: Downstream, upstream: Upstream, gate: Gate,
        lift: @escaping (Upstream.Failure) -> Downstream.Failure, name: String, scheduler: Context
    ) where Downstream.Failure == ResilienceError<Underlying> {
        switch admission {
        case .permit:
            let subscription = GatedSubscription(downstream: downstream, upstream: upstream, gate: gate, lift: lift, name: name)
            subscription.gateOpened()
            subscription.start(handingTo: downstream)
        case .delay(let wait):
            let subscription = GatedSubscription(downstream: downstream, upstream: upstream, gate: gate, lift: lift, name: name)
            subscription.start(handingTo: downstream)
            let interval: Context.SchedulerTimeType.Stride = ResilienceTime.stride(wait)
            let timer = scheduler.schedule(
                after: scheduler.now.advanced(by: interval), interval: Swift.max(interval, .nanoseconds(1)),
                tolerance: scheduler.minimumTolerance, options: nil
            ) { [weak subscription] in
                subscription?.waitEnded()
            }
            subscription.armed(timer)
        case .reject(let refusal):
            downstream.receive(subscription: Subscriptions.empty)
            downstream.receive(completion: .failure(.limiterRejected(refusal)))
        }
    }
}
