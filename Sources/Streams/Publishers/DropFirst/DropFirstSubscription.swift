/// The subscription behind `dropFirst(_:)`: it is the downstream's subscription and the
/// upstream's subscriber, and keeps its state in a ``DropFirstStateMachine`` behind one lock,
/// never held while the upstream or the downstream runs.
///
/// As in Combine, the downstream receives this subscription before the upstream is subscribed,
/// and the upstream is asked for the values to drop as soon as its subscription arrives, so a
/// dropped value asks for nothing in return.
@usableFromInline
final class DropFirstSubscription<Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, Sendable
{
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let state: LockedState<DropFirstStateMachine<Downstream>>

    @inlinable
    init(count: Int, downstream: Downstream) {
        state = LockedState(DropFirstStateMachine(count: count, downstream: downstream))
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let action = state.withLock { $0.receiveSubscription(subscription) }
        switch action {
        case .cancel:
            subscription.cancel()
        case .request(let demand):
            if demand > 0 { subscription.request(demand) }
        }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let downstream = state.withLock { (state) -> Downstream? in
            state.receiveValue() == .forward ? state.downstream : nil
        }
        return downstream?.receive(input) ?? .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let downstream = state.withLock { (state) -> Downstream? in
            guard state.receiveCompletion() else { return nil }
            defer { state.downstream = nil }
            return state.downstream
        }
        downstream?.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "API Violation: demand must not be zero")
        state.withLock { $0.request(demand) }?.request(demand)
    }

    @inlinable
    func cancel() {
        // The downstream is handed out of the lock so that it is released outside it.
        guard case .cancel(let upstream, let downstream) = state.withLock({ $0.cancel() }) else { return }
        upstream.cancel()
        withExtendedLifetime(downstream) {}
    }

    @usableFromInline
    var description: String { "Drop" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
