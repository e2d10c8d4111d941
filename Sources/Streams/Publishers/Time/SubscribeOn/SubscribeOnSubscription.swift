/// The subscription of `subscribe(on:)`: values and the completion go straight downstream; every
/// request and the cancel reach the upstream from an action scheduled with
/// `schedule(options:)`. The scheduled actions hold the subscription, and so the downstream,
/// strongly until they have run, as in Combine.
///
/// The state lives in a ``SubscribeOnStateMachine`` behind one lock; the calls it decides on run
/// outside it.
@usableFromInline
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
    let lock = Lock()
    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var machine: Machine

    @inlinable
    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        machine = Machine(downstream: downstream)
        self.scheduler = scheduler
        self.options = options
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard let downstream = lock.withLockUnchecked({ machine.receiveSubscription(subscription) }) else {
            subscription.cancel()
            return
        }
        downstream.value.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard let downstream = lock.withLockUnchecked({ machine.receiveValue() }) else { return .none }
        return downstream.value.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        lock.withLockUnchecked { machine.receiveCompletion() }?.downstream.value.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard lock.withLockUnchecked({ machine.request() }) else { return }
        scheduler.schedule(options: options) { [self] in
            perform(lock.withLockUnchecked { machine.requestRan(demand) })
        }
    }

    @inlinable
    func cancel() {
        guard lock.withLockUnchecked({ machine.cancel() }) else { return }
        scheduler.schedule(options: options) { [self] in
            perform(lock.withLockUnchecked { machine.cancelRan() })
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
            next = lock.withLockUnchecked { machine.callReturned() }
        }
    }

    @usableFromInline
    var description: String { "SubscribeOn" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
