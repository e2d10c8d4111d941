import Streams

/// The state of a ``ConcurrencyLimiter``: a value with no lock and no callouts.
///
/// `inUse` permits are taken; while all are, calls wait in `queue`, oldest first, up to
/// `maxQueued`. A released permit goes straight to the oldest waiting call (it stays taken);
/// with nobody waiting it is given back.
///
/// Waking a call may end it at once on the same stack (a synchronous publisher), releasing its
/// permit to the next call, and so on: so one caller at a time wakes calls (`waking`), and a
/// permit released meanwhile, by that caller's own wakes or on another thread, is handed to its
/// call and left in `handedOver` for that caller to wake next. However long the queue, waking
/// never recurses.
@usableFromInline
struct ConcurrencyLimiterStateMachine {
    @usableFromInline
    enum AcquireAction {
        /// A permit is the call's now.
        case permit
        /// The call waits in the queue until a permit is handed to it.
        case enqueued
        /// All permits are taken and the queue is full.
        case reject(LimiterRejectedError)
    }

    @usableFromInline
    enum ReleaseAction {
        /// Tell this waiting call that the permit is its own now.
        case wake(any GateWaiter)
        case none
    }

    let maxConcurrent: Int
    let maxQueued: Int
    var inUse = 0
    var queue: [any GateWaiter] = []
    /// Whether a caller is waking calls now.
    var waking = false
    /// Calls that were handed a permit while a caller was waking calls, for that caller to wake.
    var handedOver: [any GateWaiter] = []

    init(maxConcurrent: Int, maxQueued: Int) {
        self.maxConcurrent = maxConcurrent
        self.maxQueued = maxQueued
    }

    mutating func acquire(_ waiter: any GateWaiter) -> AcquireAction {
        if inUse < maxConcurrent {
            inUse += 1
            return .permit
        }
        guard queue.count < maxQueued else { return .reject(LimiterRejectedError(reason: .queueFull, retryAfter: nil)) }
        queue.append(waiter)
        return .enqueued
    }

    mutating func release() -> ReleaseAction {
        guard queue.isEmpty else {
            let waiter = queue.removeFirst()
            if waking {
                handedOver.append(waiter)
                return .none
            }
            waking = true
            return .wake(waiter)
        }
        precondition(inUse > 0, "ConcurrencyLimiterStateMachine: internal inconsistency: a permit released twice")
        inUse -= 1
        return .none
    }

    /// The caller that is waking calls has woken one: the next call to wake, or nil when there
    /// is none left (and the caller stops waking).
    mutating func nextToWake() -> (any GateWaiter)? {
        guard !handedOver.isEmpty else {
            waking = false
            return nil
        }
        return handedOver.removeFirst()
    }

    /// The call `waiter` was cancelled while waiting: it leaves the queue (unless a permit was
    /// handed to it meanwhile: it releases that one itself).
    mutating func abandon(_ waiter: ObjectIdentifier) {
        if let index = queue.firstIndex(where: { ObjectIdentifier($0) == waiter }) { queue.remove(at: index) }
    }
}
