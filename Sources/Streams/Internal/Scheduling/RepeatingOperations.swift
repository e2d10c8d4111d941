import Foundation

/// The operations of a repeating schedule on an `OperationQueue`, one ``DelayedOperation`` per
/// tick, as in Combine: the first is added when the work is scheduled, and each tick, when it
/// starts, adds the next tick's operation before it runs the action (ten ticks add eleven
/// operations). The next operation becomes ready only once the tick that added it has ended, so
/// ticks never overlap, even on a concurrent queue. Cancelling cancels the operation that waits
/// and ends the chain.
final class RepeatingOperations: Cancellable, Sendable {
    /// What the lock guards.
    struct State {
        /// The operation of the next tick, not yet started.
        var pending: DelayedOperation?
        var isCancelled = false
    }

    let queue: UncheckedOperationQueue
    /// Seconds between ticks.
    let interval: TimeInterval
    let state = LockedState(State())

    init(queue: OperationQueue, interval: TimeInterval) {
        self.queue = UncheckedOperationQueue(queue)
        self.interval = interval
    }

    /// Adds the first tick's operation, due at `date`.
    func start(at date: Date, _ action: UncheckedAction) {
        add(DelayedOperation(date: date, action: action, chain: self))
    }

    /// `operation`'s tick has started: adds the next one's, due an interval after its date, or
    /// at once if that has passed already (a late tick is not made up for).
    func tick(of operation: DelayedOperation, _ action: UncheckedAction) {
        let date = max(operation.date + max(interval, 0), Date())
        add(DelayedOperation(date: date, action: action, chain: self, afterPrevious: true))
    }

    /// The tick that started last has ended: the next one may run once it is due.
    func tickEnded() {
        state.withLock { $0.pending }?.previousEnded()
    }

    /// Makes `operation` the pending one and adds it to the queue, unless cancelled.
    private func add(_ operation: DelayedOperation) {
        let added = state.withLock { state in
            guard !state.isCancelled else { return false }
            state.pending = operation
            return true
        }
        guard added else { return }
        queue.queue.addOperation(operation)
        operation.becomeReadyAtDate()
    }

    /// Ends the chain: the operation that waits is cancelled.
    func cancel() {
        let pending = state.withLock { state in
            state.isCancelled = true
            defer { state.pending = nil }
            return state.pending
        }
        pending?.cancel()
    }
}
