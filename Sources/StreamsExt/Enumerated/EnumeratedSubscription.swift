import Streams

/// The subscription of `enumerated(initial:)`, with its state in an ``EnumeratedStateMachine``.
///
/// Demand passes through to the upstream; each value leaves the lock with its index and goes
/// downstream outside it. The count is per subscription, and the lock makes it exact even for an
/// upstream that breaks the rule of sending values one at a time.
@usableFromInline
final class EnumeratedSubscription<Input, Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, Sendable
where Downstream.Input == (index: Int, element: Input) {
    @usableFromInline
    let state: LockedState<EnumeratedStateMachine<Downstream>>

    @inlinable
    init(downstream: Downstream, initial: Int) {
        state = LockedState(EnumeratedStateMachine(downstream: downstream, initial: initial))
    }

    @inlinable
    func receive(subscription: any Subscription) {
        switch state.withLock({ $0.receiveSubscription(subscription) }) {
        case .attach(let downstream):
            downstream.value.receive(subscription: self)
        case .cancel:
            subscription.cancel()
        }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        switch state.withLock({ $0.receiveValue() }) {
        case .deliver(let downstream, let index):
            return downstream.value.receive((index: index, element: input))
        case .none:
            return .none
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        switch state.withLock({ $0.receiveCompletion() }) {
        case .forward(let downstream):
            downstream.value.receive(completion: completion)
        case .none:
            break
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        switch state.withLock({ $0.request() }) {
        case .forward(let upstream):
            upstream.request(demand)
        case .none:
            break
        }
    }

    @inlinable
    func cancel() {
        // What the machine held is released here, outside the lock.
        switch state.withLock({ $0.cancel() }) {
        case .cancel(let upstream, _):
            upstream.cancel()
        case .release:
            break
        }
    }

    @usableFromInline
    var description: String { "Enumerated" }

    @usableFromInline
    var customMirror: Mirror {
        let (downstream, next) = state.withLock { ($0.downstream, $0.next) }
        return Mirror(self, children: ["downstream": downstream as Any, "index": next])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
