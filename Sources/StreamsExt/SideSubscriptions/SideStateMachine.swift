import Streams

/// The state machine of an operator with side subscriptions (`sample`, `flatMapFirst`,
/// `retryWhen`), whose downstream's part is a ``SideDownstream``.
@usableFromInline
protocol SideStateMachine {
    associatedtype Downstream: Subscriber

    /// The downstream's part of the state.
    var downstream: SideDownstream<Downstream> { get set }
}

extension LockedState where State: SideStateMachine {
    /// Sends `value` to `downstream` (claimed with ``SideDownstream/claim()`` under this lock),
    /// with the lock released; then reports the delivery and carries out what it ends. Returns
    /// the demand the downstream added.
    @inlinable
    func deliver(_ value: State.Downstream.Input, to downstream: Box<State.Downstream>) -> Subscribers.Demand {
        let additional = downstream.value.receive(value)
        withLock { $0.downstream.delivered(additional) }.perform()
        return additional
    }
}
