import Streams

/// The subscription of `Publishers.FromAsync`, with its state in a ``FromAsyncStateMachine``.
/// The task it starts holds it until the operation returns; the downstream is called from that
/// task, outside the lock.
@usableFromInline
final class FromAsyncSubscription<Downstream: Subscriber>: Subscription, AsyncTaskBody, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, Sendable
{
    @usableFromInline
    typealias StateMachine = FromAsyncStateMachine<Downstream>

    @usableFromInline
    let state: LockedState<StateMachine>
    @usableFromInline
    let priority: TaskPriority?

    @inlinable
    init(downstream: Downstream, priority: TaskPriority?, operation: @escaping StateMachine.Operation) {
        state = LockedState(StateMachine(downstream: downstream, operation: operation))
        self.priority = priority
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard case .start = state.withLock({ $0.request(demand) }) else { return }
        let body: any AsyncTaskBody = self
        let task = Task(priority: priority) { await body.run() }
        if case .cancel = state.withLock({ $0.started(task) }) { task.cancel() }
    }

    /// The task's work: runs the operation and sends its result.
    @inlinable
    func run() async {
        guard let operation = state.withLock({ $0.takeOperation() }) else { return }
        do throws(Downstream.Failure) {
            finish(.success(try await operation()))
        } catch {
            finish(.failure(error))
        }
    }

    /// The operation has returned or thrown.
    @inlinable
    func finish(_ result: Result<Downstream.Input, Downstream.Failure>) {
        switch result {
        case .success(let value):
            guard case .deliver(let downstream) = state.withLock({ $0.finish(succeeded: true) }) else { return }
            _ = downstream.value.receive(value)
            state.withLock { $0.delivered() }?.value.receive(completion: .finished)
        case .failure(let error):
            guard case .fail(let downstream) = state.withLock({ $0.finish(succeeded: false) }) else { return }
            downstream.value.receive(completion: .failure(error))
        }
    }

    @inlinable
    func cancel() {
        // What the machine held is released here, outside the lock.
        guard case .cancel(let task, _, _) = state.withLock({ $0.cancel() }) else { return }
        task?.cancel()
    }

    @usableFromInline
    var description: String { "FromAsync" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
