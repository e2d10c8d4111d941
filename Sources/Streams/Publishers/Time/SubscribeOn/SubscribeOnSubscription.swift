/// The subscription of `subscribe(on:)`: values and the completion go straight downstream; every
/// request and the cancel reach the upstream from an action scheduled with
/// `schedule(options:)`. The scheduled actions hold the subscription, and so the downstream,
/// strongly until they have run, as in Combine.
///
/// The state lives in a ``SubscribeOnStateMachine`` behind one lock; the calls it decides on run
/// outside it.
@usableFromInline
// Unchecked: it holds the scheduler and its options, which need not be Sendable.
final class SubscribeOnSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    typealias Machine = SubscribeOnStateMachine<Downstream>

    @usableFromInline
    let scheduler: Context
    @usableFromInline
    let options: Context.SchedulerOptions?
    @usableFromInline
    let state: LockedState<Machine>

    @inlinable
    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        state = LockedState(Machine(downstream: downstream))
        self.scheduler = scheduler
        self.options = options
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard let downstream = state.withLock({ $0.receiveSubscription(subscription) }) else {
            subscription.cancel()
            return
        }
        downstream.value.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard let downstream = state.withLock({ $0.receiveValue() }) else { return .none }
        return downstream.value.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        state.withLock { $0.receiveCompletion() }?.downstream.value.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard state.withLock({ $0.request() }) else { return }
        scheduler.schedule(options: options) { [self] in
            perform(state.withLock { $0.requestRan(demand) })
        }
    }

    @inlinable
    func cancel() {
        guard state.withLock({ $0.cancel() }) else { return }
        scheduler.schedule(options: options) { [self] in
            perform(state.withLock { $0.cancelRan() })
        }
    }

    /// Makes `first` on the upstream, then the calls left to this thread meanwhile.
    @inlinable
    func perform(_ first: Machine.UpstreamCall?) {
        var next = first
        while let call = next {
            switch call {
            case .request(let upstream, let demand):
                upstream.request(demand)
            case .cancel(let upstream, let downstream):
                upstream.cancel()
                withExtendedLifetime(downstream) {}
            }
            next = state.withLock { $0.callReturned() }
        }
    }

    @usableFromInline
    var description: String { "SubscribeOn" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
