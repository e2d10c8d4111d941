import Streams

/// The subscription of `Publishers.Using`, with its state in a ``UsingStateMachine``: the
/// subscriber the upstream sees, and the subscription the downstream gets. The resource is
/// disposed of outside the lock, after the downstream's completion or the upstream's cancel.
@usableFromInline
final class UsingSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, Sendable
{
    @usableFromInline
    typealias StateMachine = UsingStateMachine<Downstream>

    @usableFromInline
    let state: LockedState<StateMachine>

    @inlinable
    init(downstream: Downstream, disposal: @escaping () -> Void) {
        state = LockedState(StateMachine(downstream: downstream, disposal: disposal))
    }

    // MARK: Upstream

    @inlinable
    func receive(subscription: any Subscription) {
        switch state.withLock({ $0.receiveSubscription(subscription) }) {
        case .subscribe(let downstream): downstream.value.receive(subscription: self)
        case .cancel: subscription.cancel()
        }
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard let downstream = state.withLock({ $0.receiveValue() }) else { return .none }
        return downstream.value.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        guard case .complete(let downstream, let disposal) = state.withLock({ $0.receiveCompletion() }) else { return }
        downstream.value.receive(completion: completion)
        disposal()
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.request() }?.request(demand)
    }

    @inlinable
    func cancel() {
        guard case .cancel(let upstream, let disposal, _) = state.withLock({ $0.cancel() }) else { return }
        upstream.cancel()
        disposal()
    }

    @usableFromInline
    var description: String { "Using" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
