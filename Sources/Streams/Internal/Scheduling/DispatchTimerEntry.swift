import Dispatch

/// One piece of work that ``DispatchTimerEngine`` runs on a `DispatchQueue` at a deadline: a
/// one-shot `schedule(after:tolerance:options:)`, or a repeating
/// `schedule(after:interval:tolerance:options:)`, whose `Cancellable` it is.
///
/// Everything that changes after it is made (its deadline, its place in the heap, its queue and
/// action, whether it is cancelled) is read and written only with the engine's lock held.
// Unchecked: the mutable fields are reached only under `DispatchTimerEngine`'s lock.
final class DispatchTimerEntry: Cancellable, @unchecked Sendable {
    /// Nanoseconds between ticks, at least one (Dispatch reads an interval of zero as one
    /// nanosecond); zero for a one-shot entry.
    let interval: UInt64
    /// The leeway the engine's timer may take when this entry is the earliest, in nanoseconds.
    let tolerance: UInt64
    /// The quality of service of the work handed to the queue.
    let qos: DispatchQoS
    /// The flags of the work handed to the queue.
    let flags: DispatchWorkItemFlags

    /// The uptime, in nanoseconds, at which the next run is due.
    var deadline: UInt64
    /// The entry's place in the engine's heap; -1 while it is not in it (running, never due, or
    /// cancelled).
    var heapIndex = -1
    /// The queue the work runs on, until the entry is cancelled.
    var queue: DispatchQueue?
    /// The work, until the entry is cancelled (or a one-shot entry's work runs).
    var action: (() -> Void)?
    /// Whether `cancel()` was called.
    var isCancelled = false

    init(
        queue: DispatchQueue, deadline: UInt64, interval: UInt64, tolerance: UInt64,
        options: DispatchQueue.SchedulerOptions?, action: @escaping () -> Void
    ) {
        self.queue = queue
        self.deadline = deadline
        self.interval = interval
        self.tolerance = tolerance
        qos = options?.qos ?? .unspecified
        flags = options?.flags ?? []
        self.action = action
    }

    /// Whether the entry runs again after each tick.
    var isRepeating: Bool { interval != 0 }

    /// Runs a one-shot entry's action, on its queue, and lets it go before returning. Reached
    /// only by the work the engine handed to the queue, after the entry left the heap under the
    /// engine's lock: a one-shot entry has no `Cancellable`, so nothing else reads the action.
    func runOnce() {
        let action = self.action
        self.action = nil
        action?()
    }

    /// Stops the ticks; the action and the queue are released at once. A tick that is running
    /// finishes; one handed to the queue but not started does not run.
    func cancel() {
        DispatchTimerEngine.shared.cancel(self)
    }
}
