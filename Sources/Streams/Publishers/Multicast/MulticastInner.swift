/// What `multicast` subscribes to its subject for each downstream subscriber; it is also the
/// downstream's subscription.
///
/// Values pass without a lock: a ``DeliveryGate``, pending until the subject's subscription
/// arrives, admits them and decides when the downstream is released. Demand the downstream
/// returns is requested from the subject's subscription (under the lock, only when non-zero);
/// the subject itself is always returned `.none`.
///
/// The inner keeps the subject alive until it ends, as the subscriptions of Combine's subjects
/// do: the multicast's connection holds the subject only weakly, so a pipeline whose multicast
/// was let go keeps flowing while it has subscribers.
@usableFromInline
final class MulticastInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    /// What the machine keeps alive for the inner.
    @usableFromInline
    typealias Resources = (downstream: Downstream, subject: AnyObject)

    @usableFromInline
    let gate = DeliveryGate(pending: true)
    @usableFromInline
    let lock = Lock()
    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var machine: MulticastInnerStateMachine
    /// The downstream and the subject, unretained, for deliveries; the machine keeps them
    /// alive until the gate lets them go.
    @usableFromInline
    let borrowed: Unmanaged<Box<Resources>>

    @inlinable
    init(downstream: Downstream, subject: AnyObject) {
        let box = Box((downstream: downstream, subject: subject))
        borrowed = .passUnretained(box)
        machine = MulticastInnerStateMachine(downstream: box)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let action = lock.withLockUnchecked { () -> MulticastInnerStateMachine.SubscriptionAction in
            let action = machine.receiveSubscription(subscription)
            if case .handDownstream = action { gate.open() }
            return action
        }
        switch action {
        case .handDownstream(let downstream):
            unsafeDowncast(downstream, to: Box<Resources>.self).value.downstream.receive(subscription: self)
        case .cancel:
            subscription.cancel()
        }
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard gate.enter() else { return .none }
        let demand = borrowed._withUnsafeGuaranteedRef { $0.value.downstream.receive(input) }
        if !gate.leave() {
            release()
        }
        if demand != .none {
            lock.withLockUnchecked { machine.request() }?.request(demand)
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        guard lock.withLockUnchecked({ machine.receiveCompletion() }) else { return }
        // Delivering: the completion comes from inside a value's delivery, which releases.
        let previous = gate.close()
        borrowed._withUnsafeGuaranteedRef { $0.value.downstream.receive(completion: completion) }
        if previous != .delivering {
            release()
        }
    }

    /// Lets go of the downstream, outside the lock; called once, as the gate decides.
    @inlinable
    func release() {
        let released = lock.withLockUnchecked { machine.releaseDownstream() }
        withExtendedLifetime(released) {}
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.withLockUnchecked { machine.request() }?.request(demand)
    }

    @inlinable
    func cancel() {
        guard case .end(let subscription) = lock.withLockUnchecked({ machine.cancel() }) else { return }
        // Pending (cancelled before the subscription) or open: nothing is being delivered.
        if gate.close() != .delivering {
            release()
        }
        subscription?.cancel()
    }

    @usableFromInline
    var description: String { "Multicast" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
