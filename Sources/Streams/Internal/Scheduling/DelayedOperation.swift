import Dispatch
import Foundation

/// The operation an `OperationQueue` is given for work due later, as in Combine: it is on the
/// queue from the moment the work is scheduled, so the queue counts and lists it,
/// `waitUntilAllOperationsAreFinished()` waits for it and `cancelAllOperations()` cancels it,
/// but it is not ready until its date. It is synchronous, not a `BlockOperation`, and
/// `Cancellable`. It runs its action once and lets it go; cancelling it lets the action go too.
///
/// An operation of a repeating schedule belongs to a ``RepeatingOperations`` chain: when it runs
/// it first has the chain add the next tick's operation, then runs the action, then lets the
/// next one become ready. (Not through `addDependency(_:)`: swift-corelibs-foundation keeps an
/// unretained reference from an operation to those that depend on it, and reads it when the
/// operation finishes, after a cancelled dependent may already have been freed.)
// Unchecked: `Operation` is thread-safe, though not marked Sendable; this one's own state is
// behind its lock.
final class DelayedOperation: Operation, Cancellable, @unchecked Sendable {
    /// What the lock guards.
    struct State {
        /// The work, until it runs or is cancelled.
        var action: UncheckedAction?
        /// The date has come.
        var isDue = false
        /// The previous tick of a repeating schedule is still running.
        var waitsForPrevious: Bool
    }

    let state: LockedState<State>
    /// When the operation becomes ready.
    let date: Date
    /// The chain of a repeating schedule; nil for work that runs once.
    let chain: RepeatingOperations?

    init(date: Date, action: UncheckedAction, chain: RepeatingOperations?, afterPrevious: Bool = false) {
        state = LockedState(State(action: action, waitsForPrevious: afterPrevious))
        self.date = date
        self.chain = chain
        super.init()
    }

    /// Ready once its date has come, what it depends on has finished and, in a repeating
    /// schedule, the previous tick has ended; a cancelled operation is ready at once, so that
    /// its queue lets it go.
    override var isReady: Bool {
        guard super.isReady else { return false }
        return isCancelled || state.withLock { $0.isDue && !$0.waitsForPrevious }
    }

    override func main() {
        // Released after the action has run, outside the lock.
        let action = state.withLock { state in
            defer { state.action = nil }
            return state.action
        }
        guard let action else { return }
        guard let chain else { return action.run() }
        chain.tick(of: self, action)
        action.run()
        chain.tickEnded()
    }

    override func cancel() {
        super.cancel()
        // Released here, outside the lock.
        _ = state.withLock { state in
            defer { state.action = nil }
            return state.action
        }
    }

    /// Makes the operation ready at its date; call once it is on its queue. A date more than
    /// about 31 years ahead never comes.
    func becomeReadyAtDate() {
        let deadline = OperationQueue.wallTime(of: OperationQueue.SchedulerTimeType(date))
        guard deadline != .distantFuture else { return }
        OperationQueue.timers.asyncAfter(wallDeadline: deadline) { [weak self] in
            self?.becomeReady()
        }
    }

    /// The date has come: tells the queue, which looks at `isReady` again.
    private func becomeReady() {
        willChangeValue(forKey: "isReady")
        state.withLock { $0.isDue = true }
        didChangeValue(forKey: "isReady")
    }

    /// The previous tick of its repeating schedule has ended: tells the queue, which looks at
    /// `isReady` again.
    func previousEnded() {
        willChangeValue(forKey: "isReady")
        state.withLock { $0.waitsForPrevious = false }
        didChangeValue(forKey: "isReady")
    }
}
