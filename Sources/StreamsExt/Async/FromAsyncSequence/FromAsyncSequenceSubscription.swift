import Streams

/// The subscription of `Publishers.FromAsyncSequence`, with its state in a
/// ``FromAsyncSequenceStateMachine``. The iterating task holds it (and the sequence) until the
/// iteration stops; the downstream is called from that task, outside the lock.
@usableFromInline
final class FromAsyncSequenceSubscription<Downstream: Subscriber, Base: AsyncSequence & Sendable>: Subscription,
    AsyncTaskBody, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, Sendable
where Base.Element == Downstream.Input, Base.Failure == Downstream.Failure {
    @usableFromInline
    typealias StateMachine = FromAsyncSequenceStateMachine<Downstream>

    @usableFromInline
    let state: LockedState<StateMachine>
    @usableFromInline
    let base: Base
    @usableFromInline
    let priority: TaskPriority?

    @inlinable
    init(downstream: Downstream, base: Base, priority: TaskPriority?) {
        state = LockedState(StateMachine(downstream: downstream))
        self.base = base
        self.priority = priority
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        switch state.withLock({ $0.request(demand) }) {
        case .start:
            let body: any AsyncTaskBody = self
            let task = Task(priority: priority) { await body.run() }
            if case .cancel = state.withLock({ $0.started(task) }) { task.cancel() }
        case .resume(let continuation):
            continuation.resume(returning: true)
        case .none:
            break
        }
    }

    /// The task's work: pulls one element per unit of demand until the sequence ends or the
    /// subscription does.
    @inlinable
    func run() async {
        var iterator = base.makeAsyncIterator()
        while await demandAvailable() {
            let element: Base.Element?
            do throws(Base.Failure) {
                element = try await iterator.next(isolation: nil)
            } catch {
                complete(.failure(error))
                return
            }
            guard let element else {
                complete(.finished)
                return
            }
            guard let downstream = state.withLock({ $0.receiveValue() }) else { return }
            let additional = downstream.value.receive(element)
            if additional > 0 { state.withLock { $0.delivered(additional) } }
        }
    }

    /// Waits for one unit of demand: true to call `next()`, false when the subscription has
    /// ended.
    @inlinable
    func demandAvailable() async -> Bool {
        await withUnsafeContinuation { continuation in
            if case .resume(let continuation, let goOn) = state.withLock({ $0.awaitDemand(continuation) }) {
                continuation.resume(returning: goOn)
            }
        }
    }

    @inlinable
    func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
        state.withLock { $0.receiveCompletion() }?.value.receive(completion: completion)
    }

    @inlinable
    func cancel() {
        // What the machine held is released here, outside the lock.
        guard case .cancel(let task, let waiting, _) = state.withLock({ $0.cancel() }) else { return }
        task?.cancel()
        waiting?.resume(returning: false)
    }

    @usableFromInline
    var description: String { "FromAsyncSequence" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
