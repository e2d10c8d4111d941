import Streams

/// The subscription of `nwise(_:)` and `pairwise()`, with its state in an
/// ``NWiseStateMachine``.
///
/// Demand passes through to the upstream and counts windows: a value that only fills the
/// window asks upstream for one more. Full windows leave the lock as arrays and go downstream
/// outside it.
@usableFromInline
final class NWiseSubscription<Input, Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, Sendable
where Downstream.Input == [Input] {
    @usableFromInline
    let state: LockedState<NWiseStateMachine<Downstream, Input>>

    @inlinable
    init(downstream: Downstream, size: Int) {
        state = LockedState(NWiseStateMachine(downstream: downstream, size: size))
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
        switch state.withLock({ $0.receiveValue(input) }) {
        case .deliver(let downstream, let window):
            return downstream.value.receive(window)
        case .fill:
            return .max(1)
        case .none:
            return .none
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        guard case .forward(let downstream) = state.withLock({ $0.receiveCompletion() }) else { return }
        downstream.value.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard case .forward(let upstream) = state.withLock({ $0.request() }) else { return }
        upstream.request(demand)
    }

    @inlinable
    func cancel() {
        // What the machine held is released here, outside the lock.
        if case .cancel(let upstream, _, _) = state.withLock({ $0.cancel() }) {
            upstream.cancel()
        }
    }

    @usableFromInline
    var description: String { "NWise" }

    @usableFromInline
    var customMirror: Mirror {
        let size = state.withLock { $0.size }
        return Mirror(self, children: ["size": size])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
