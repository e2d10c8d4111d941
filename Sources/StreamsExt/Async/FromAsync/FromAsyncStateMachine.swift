import Streams

/// The state of a `Publishers.FromAsync` subscription: a value with no lock and no callouts.
/// Each event updates it and returns what the subscription must do once the lock is released.
///
/// Phases:
/// - `awaitingSubscription(downstream)`: no demand yet, no task. The first request with
///   demand → `subscribed`, and the subscription starts the task, which takes the operation.
/// - `subscribed(downstream, task)`: the task runs (`task` is nil until it has been made). Its
///   value → `completing`, a failure → `terminated`.
/// - `completing(downstream)`: the value is being delivered; `.finished` follows unless the
///   downstream cancels meanwhile.
/// - `terminated`: completed or cancelled; everything has been let go and is ignored.
///
/// The operation sits beside the phase until the task takes it or the subscription ends.
@usableFromInline
struct FromAsyncStateMachine<Downstream: Subscriber> {
    @usableFromInline
    typealias Operation = @Sendable () async throws(Downstream.Failure) -> Downstream.Input

    @usableFromInline
    enum Phase {
        case awaitingSubscription(Box<Downstream>)
        case subscribed(Box<Downstream>, task: Task<Void, Never>?)
        case completing(Box<Downstream>)
        case terminated
    }

    @usableFromInline
    var phase: Phase
    /// The closure to run, until the task takes it.
    @usableFromInline
    var operation: Operation?

    @inlinable
    init(downstream: Downstream, operation: @escaping Operation) {
        phase = .awaitingSubscription(Box(downstream))
        self.operation = operation
    }

    @usableFromInline
    enum RequestAction {
        /// Start the task, then report it with ``started(_:)``.
        case start
        case none
    }

    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> RequestAction {
        guard demand > 0, case .awaitingSubscription(let downstream) = phase else { return .none }
        phase = .subscribed(downstream, task: nil)
        return .start
    }

    /// The task takes the operation to run: nil if the subscription has ended.
    @inlinable
    mutating func takeOperation() -> Operation? {
        defer { operation = nil }
        guard case .subscribed = phase else { return nil }
        return operation
    }

    @usableFromInline
    enum StartedAction {
        /// The subscription ended before the task was known: cancel it.
        case cancel
        case none
    }

    @inlinable
    mutating func started(_ task: Task<Void, Never>) -> StartedAction {
        guard case .subscribed(let downstream, task: .none) = phase else { return .cancel }
        phase = .subscribed(downstream, task: task)
        return .none
    }

    @usableFromInline
    enum FinishAction {
        /// Send the value, then report with ``delivered()``.
        case deliver(Box<Downstream>)
        /// Send the failure.
        case fail(Box<Downstream>)
        case none
    }

    /// The task has its result: a value (`succeeded`) or a failure.
    @inlinable
    mutating func finish(succeeded: Bool) -> FinishAction {
        guard case .subscribed(let downstream, _) = phase else { return .none }
        phase = succeeded ? .completing(downstream) : .terminated
        return succeeded ? .deliver(downstream) : .fail(downstream)
    }

    /// The value has been delivered: the downstream to finish, unless it cancelled meanwhile.
    @inlinable
    mutating func delivered() -> Box<Downstream>? {
        guard case .completing(let downstream) = phase else { return nil }
        phase = .terminated
        return downstream
    }

    @usableFromInline
    enum CancelAction {
        /// Cancel the task if there is one; what the machine held is let go of outside the lock.
        case cancel(Task<Void, Never>?, released: Phase, operation: Operation?)
        case none
    }

    @inlinable
    mutating func cancel() -> CancelAction {
        let released = phase
        let task: Task<Void, Never>?
        switch phase {
        case .awaitingSubscription, .completing: task = nil
        case .subscribed(_, let running): task = running
        case .terminated: return .none
        }
        phase = .terminated
        defer { operation = nil }
        return .cancel(task, released: released, operation: operation)
    }
}
