import Streams

/// The state of a `Publishers.FromAsyncSequence` subscription: a value with no lock and no
/// callouts. Each event updates it and returns what the subscription must do once the lock is
/// released.
///
/// Phases:
/// - `awaitingSubscription(downstream)`: no demand yet, no task. The first request with
///   demand → `subscribed`, and the subscription starts the task.
/// - `subscribed(downstream, task)`: the task iterates (`task` is nil until it has been made).
///   Before each `next()` it takes one unit of `demand`, or waits for one in `waiting`. The
///   end of the sequence or its failure → `terminated`.
/// - `terminated`: completed or cancelled; everything has been let go and is ignored; a
///   waiting task is resumed and told to stop.
@usableFromInline
struct FromAsyncSequenceStateMachine<Downstream: Subscriber> {
    @usableFromInline
    typealias Continuation = UnsafeContinuation<Bool, Never>

    @usableFromInline
    enum Phase {
        case awaitingSubscription(Box<Downstream>)
        case subscribed(Box<Downstream>, task: Task<Void, Never>?)
        case terminated
    }

    @usableFromInline
    var phase: Phase
    /// Requested by the downstream and not yet taken by the task.
    @usableFromInline
    var demand = Subscribers.Demand.none
    /// The task, waiting for demand before its next `next()`.
    @usableFromInline
    var waiting: Continuation?

    @inlinable
    init(downstream: Downstream) {
        phase = .awaitingSubscription(Box(downstream))
    }

    @usableFromInline
    enum RequestAction {
        /// Start the iterating task, then report it with ``started(_:)``.
        case start
        /// Resume the waiting task: it may call `next()` once.
        case resume(Continuation)
        case none
    }

    @inlinable
    mutating func request(_ additional: Subscribers.Demand) -> RequestAction {
        guard additional > 0 else { return .none }
        switch phase {
        case .awaitingSubscription(let downstream):
            demand += additional
            phase = .subscribed(downstream, task: nil)
            return .start
        case .subscribed:
            demand += additional
            return takeWaiting()
        case .terminated:
            return .none
        }
    }

    /// The waiting task with one unit of demand taken for it, if it waits and there is demand.
    @inlinable
    mutating func takeWaiting() -> RequestAction {
        guard let continuation = waiting, demand > 0 else { return .none }
        waiting = nil
        demand -= 1
        return .resume(continuation)
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
    enum AwaitDemandAction {
        /// Resume the task at once: with true to call `next()`, false to stop.
        case resume(Continuation, Bool)
        /// The task waits for a request.
        case wait
    }

    /// The task is about to call `next()`: it takes one unit of demand, or waits for one.
    @inlinable
    mutating func awaitDemand(_ continuation: Continuation) -> AwaitDemandAction {
        guard case .subscribed = phase else { return .resume(continuation, false) }
        guard demand > 0 else {
            waiting = continuation
            return .wait
        }
        demand -= 1
        return .resume(continuation, true)
    }

    /// An element arrived: the downstream to send it to, unless the subscription has ended.
    @inlinable
    func receiveValue() -> Box<Downstream>? {
        guard case .subscribed(let downstream, _) = phase else { return nil }
        return downstream
    }

    /// The downstream asked for `additional` more while receiving an element.
    @inlinable
    mutating func delivered(_ additional: Subscribers.Demand) {
        guard case .subscribed = phase else { return }
        demand += additional
    }

    /// The sequence ended or failed: the downstream to complete, unless the subscription has
    /// ended.
    @inlinable
    mutating func receiveCompletion() -> Box<Downstream>? {
        guard case .subscribed(let downstream, _) = phase else { return nil }
        phase = .terminated
        return downstream
    }

    @usableFromInline
    enum CancelAction {
        /// Cancel the task and tell a waiting one to stop; what the machine held is let go of
        /// outside the lock.
        case cancel(Task<Void, Never>?, waiting: Continuation?, released: Phase)
        case none
    }

    @inlinable
    mutating func cancel() -> CancelAction {
        let released = phase
        let task: Task<Void, Never>?
        switch phase {
        case .awaitingSubscription: task = nil
        case .subscribed(_, let running): task = running
        case .terminated: return .none
        }
        phase = .terminated
        let continuation = waiting
        waiting = nil
        return .cancel(task, waiting: continuation, released: released)
    }
}
