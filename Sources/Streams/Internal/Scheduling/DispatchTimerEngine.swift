import Dispatch

/// The timers of `DispatchQueue`'s `Scheduler` conformance: one Dispatch timer source for the
/// whole process and a heap of deadlines, so that scheduling work for later, and cancelling it,
/// costs a heap operation instead of a Dispatch timer source made and cancelled.
///
/// `schedule(after:interval:…)` adds an entry to the heap and returns it as its `Cancellable`;
/// `cancel()` takes it out of the heap and releases its action and queue at once. The source,
/// on a serial queue of the engine's own, is armed for the earliest deadline, and re-armed only
/// when an entry earlier than the one it is armed for arrives (a debounce's new deadline is
/// later, so it never is); when it fires, every entry that is due leaves the heap, in deadline
/// order and, for equal deadlines, in the order they were scheduled, and its work goes to its
/// queue with `async` (with its options' quality of service and flags), outside the lock. A
/// repeating entry goes back into the heap when its tick has run, at the next deadline of its
/// grid (`date + k * interval`); ticks missed while one ran, or while the queue was busy, make
/// one tick at once, as a Dispatch timer's coalesced events do, so ticks never overlap or pile up.
///
/// An idle engine holds no queue and no action of its users: the heap holds only live entries.
///
/// ```swift
/// let entry = DispatchTimerEngine.shared.schedule(
///     on: queue, at: deadline, interval: 0, tolerance: 0, options: nil) { print("due") }
/// entry?.cancel()
/// ```
// Unchecked: the source is set only under the lock, and the state is reached only through it.
final class DispatchTimerEngine: @unchecked Sendable {
    /// What the lock guards.
    struct State {
        var heap = DispatchTimerHeap()
        /// The deadline the source is armed for and has not fired for yet; nil if none.
        var armed: UInt64?
    }

    /// A due entry and its queue, read under the lock and handed over outside it. The entry
    /// keeps its action: the work takes it when it runs, so that nothing the engine's thread
    /// still holds keeps the action alive once it has run.
    struct Handoff {
        let queue: DispatchQueue
        let entry: DispatchTimerEntry
    }

    /// The engine of every queue.
    static let shared = DispatchTimerEngine()

    /// The earliest uptime that never comes: Dispatch cannot represent a deadline of 2^62 - 1
    /// nanoseconds or more (about 146 years of uptime).
    static var never: UInt64 { DispatchQueue.SchedulerTimeType.dispatchLimit }

    private let state = LockedState(State())
    private let source: any DispatchSourceTimer

    private init() {
        source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "Streams.DispatchQueue.timers"))
        source.setEventHandler { DispatchTimerEngine.shared.fire() }
        source.resume()
    }

    /// How many entries wait in the heap (for tests).
    var pendingCount: Int { state.withLock { $0.heap.count } }

    /// Runs `action` on `queue` at `deadline` (an uptime in nanoseconds) and, if `interval` is
    /// not zero, every `interval` nanoseconds after. Returns the entry, the repeating work's
    /// `Cancellable`; nil for one-shot work that never comes, which is released at once.
    @discardableResult
    func schedule(
        on queue: DispatchQueue, at deadline: UInt64, interval: UInt64, tolerance: UInt64,
        options: DispatchQueue.SchedulerOptions?, _ action: @escaping () -> Void
    ) -> DispatchTimerEntry? {
        guard deadline < Self.never || interval != 0 else { return nil }
        let entry = DispatchTimerEntry(
            queue: queue, deadline: deadline, interval: interval, tolerance: tolerance, options: options,
            action: action)
        // A repeating entry whose first tick never comes keeps its action until it is cancelled,
        // as a Dispatch timer source does.
        guard deadline < Self.never else { return entry }
        state.withLock { state in
            state.heap.insert(entry)
            arm(&state, for: entry)
        }
        return entry
    }

    /// Takes `entry` out of the heap; its action and queue are released here, after the lock,
    /// when the two locals go. (Not through `withExtendedLifetime`: a closure handed to a generic
    /// function is wrapped in a reabstraction thunk, an allocation per cancel.)
    func cancel(_ entry: DispatchTimerEntry) {
        var action: (() -> Void)?
        var queue: DispatchQueue?
        state.withLock { state in
            guard !entry.isCancelled else { return }
            entry.isCancelled = true
            if entry.heapIndex >= 0 { state.heap.remove(at: entry.heapIndex) }
            action = entry.action
            queue = entry.queue
            entry.action = nil
            entry.queue = nil
        }
        _ = action
        _ = queue
    }

    /// Arms the source for `entry` if it is due before the deadline the source is armed for.
    private func arm(_ state: inout State, for entry: DispatchTimerEntry) {
        if let armed = state.armed, armed <= entry.deadline { return }
        state.armed = entry.deadline
        source.schedule(
            deadline: DispatchTime(uptimeNanoseconds: entry.deadline), repeating: .never,
            leeway: .nanoseconds(Int(clamping: entry.tolerance)))
    }

    /// The source fired: hands every due entry to its queue and re-arms for the earliest left.
    private func fire() {
        var due: [Handoff] = []
        state.withLock { state in
            state.armed = nil
            let now = DispatchTime.now().uptimeNanoseconds
            while let first = state.heap.first, first.deadline <= now {
                let entry = state.heap.removeFirst()
                guard let queue = entry.queue else { continue }
                due.append(Handoff(queue: queue, entry: entry))
                // A one-shot entry is done with its queue; its work, once handed over, cannot be
                // cancelled, and only that work reads the action from here on.
                if !entry.isRepeating { entry.queue = nil }
            }
            if let first = state.heap.first { arm(&state, for: first) }
        }
        for handoff in due {
            let entry = handoff.entry
            if entry.isRepeating {
                handoff.queue.async(qos: entry.qos, flags: entry.flags) { DispatchTimerEngine.shared.tick(entry) }
            } else {
                handoff.queue.async(qos: entry.qos, flags: entry.flags) { entry.runOnce() }
            }
        }
    }

    /// Runs a tick of the repeating `entry`, on its queue, unless it was cancelled since it was
    /// handed over; then puts it back in the heap at its next deadline.
    private func tick(_ entry: DispatchTimerEntry) {
        var action: (() -> Void)?
        state.withLock { _ in
            if !entry.isCancelled { action = entry.action }
        }
        guard let action else { return }
        action()
        state.withLock { state in
            guard !entry.isCancelled else { return }
            let (next, overflow) = entry.deadline.addingReportingOverflow(entry.interval)
            // The next tick never comes: the entry keeps its action until it is cancelled.
            guard !overflow, next < Self.never else { return }
            let now = DispatchTime.now().uptimeNanoseconds
            // Deadlines that passed while the tick waited or ran make one tick, at once.
            entry.deadline = next > now ? next : next + (now - next) / entry.interval * entry.interval
            state.heap.insert(entry)
            arm(&state, for: entry)
        }
    }
}
