/// How a ``RescheduledSubscription`` schedules the delivery of each event: on the scheduler's
/// next turn for `receive(on:)`, after an interval for `delay`.
@usableFromInline
protocol Rescheduling {
    /// Runs `action` later, on the scheduler.
    func schedule(_ action: @escaping () -> Void)
}

/// A ``Rescheduling`` whose subscription describes itself, as `receive(on:)`'s does in Combine
/// (`delay`'s conforms to none of the reflection protocols).
@usableFromInline
protocol DescribedRescheduling: Rescheduling {
    /// The subscription's description.
    static var subscriptionDescription: String { get }
}

/// The subscription behind `receive(on:)` and `delay(for:scheduler:)`: the subscription goes
/// downstream at once and requests go straight upstream; every value and the completion are
/// queued and an action is scheduled for each, which delivers it later. The demand the
/// downstream returns from a value is requested upstream after the delivery, unless cancelled
/// meanwhile; as in Combine, also while the completion is pending, although the upstream has
/// completed. A completion, once scheduled, is delivered even after a `cancel()`. Scheduled
/// actions hold the subscription, and so the downstream, strongly until they have run.
///
/// The state lives in a ``RescheduledStateMachine`` behind one lock; the calls it decides on
/// run outside it.
@usableFromInline
// Unchecked: it holds the rescheduler (a scheduler), which need not be Sendable.
final class RescheduledSubscription<Downstream: Subscriber, Rescheduler: Rescheduling>: Subscriber, Subscription,
    @unchecked Sendable
{
    @usableFromInline
    typealias Machine = RescheduledStateMachine<Downstream>

    @usableFromInline
    let rescheduler: Rescheduler
    @usableFromInline
    let state: LockedState<Machine>

    @inlinable
    init(downstream: Downstream, rescheduler: Rescheduler) {
        self.rescheduler = rescheduler
        state = LockedState(Machine(downstream: downstream))
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
        if state.withLock({ $0.receive(input) }) {
            rescheduler.schedule { [self] in actionRan() }
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        if state.withLock({ $0.receive(completion: completion) }) {
            rescheduler.schedule { [self] in actionRan() }
        }
    }

    /// One scheduled action has run: deliver the due events, unless another action already is.
    @inlinable
    func actionRan() {
        switch state.withLock({ $0.actionRan() }) {
        case .deliver(let delivery):
            deliver(from: delivery)
        case .release(let downstream):
            withExtendedLifetime(downstream) {}
        case .none:
            break
        }
    }

    /// Delivers `first`, then every event that comes due meanwhile.
    @inlinable
    func deliver(from first: Machine.Delivery) {
        var next: Machine.Delivery? = first
        while let delivery = next {
            switch delivery {
            case .value(let input, let downstream):
                let demand = downstream.value.receive(input)
                let after = state.withLock { $0.delivered(demand) }
                after.request?.request(demand)
                next = after.next
            case .completion(let completion, let downstream):
                downstream.value.receive(completion: completion)
                next = state.withLock { $0.delivered(.none) }.next
            }
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.request() }?.request(demand)
    }

    @inlinable
    func cancel() {
        // What the machine lets go of is released here, outside the lock.
        state.withLock { $0.cancel() }?.upstream.cancel()
    }
}

extension RescheduledSubscription: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Rescheduler: DescribedRescheduling {
    @usableFromInline
    var description: String { Rescheduler.subscriptionDescription }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
