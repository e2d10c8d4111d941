import Streams

/// The subscription of `create`, with its state in a ``CreateStateMachine``. Values sent by the
/// factory are delivered by one thread at a time: whoever finds nobody delivering drains the
/// queue as far as the demand goes; a value sent meanwhile (from inside the downstream, or from
/// another thread) is queued and delivered by that thread.
@usableFromInline
final class CreateSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, Sendable
{
    @usableFromInline
    typealias StateMachine = CreateStateMachine<Downstream>

    @usableFromInline
    let state: LockedState<StateMachine>

    @inlinable
    init(downstream: Downstream) {
        state = LockedState(StateMachine(downstream: downstream))
    }

    /// Keeps what the factory returned; cancels it at once if the subscription has ended.
    @inlinable
    func attach(_ cancellable: any Cancellable) {
        if case .cancel = state.withLock({ $0.attach(cancellable) }) { cancellable.cancel() }
    }

    @inlinable
    func send(_ input: Downstream.Input) {
        perform(state.withLock { $0.send(input) })
    }

    @inlinable
    func send(completion: Subscribers.Completion<Downstream.Failure>) {
        perform(state.withLock { $0.send(completion: completion) })
    }

    /// Delivers until nothing is left that the demand allows.
    @inlinable
    func perform(_ first: StateMachine.DeliveryAction) {
        var action = first
        while true {
            switch action {
            case .deliver(let downstream, let value):
                let additional = downstream.value.receive(value)
                action = state.withLock { $0.delivered(additional) }
            case .complete(let downstream, let completion, let cancel, _):
                // The queue's values go with `action`, after the lock.
                downstream.value.receive(completion: completion)
                cancel?.cancel()
                return
            case .none:
                return
            }
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        perform(state.withLock { $0.request(demand) })
    }

    @inlinable
    func cancel() {
        // What the machine held is released here, outside the lock.
        guard case .cancel(let cancellable, _, _) = state.withLock({ $0.cancel() }) else { return }
        cancellable?.cancel()
    }

    /// CombineExt's description, with the output and failure types' names.
    @usableFromInline
    var description: String { "Create.Subscription<\(Downstream.Input.self), \(Downstream.Failure.self)>" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
