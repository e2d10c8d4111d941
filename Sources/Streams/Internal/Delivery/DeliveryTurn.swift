import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whose turn it is to deliver to one subscriber, and who waits for it.
///
/// A subscriber is called by one thread at a time. The thread that finds nobody delivering
/// takes the turn, delivers, and before it lets go delivers whatever was queued behind it. What
/// happens to a value that finds the turn taken depends on who holds it:
/// - the same thread, re-entrantly from inside the subscriber: the caller queues the value and
///   returns; the holder delivers it next;
/// - another thread: the caller waits in line (first come, first served) until the turn is
///   handed to it, then delivers its own value. No lock is held while it waits or delivers; the
///   producer simply runs at the subscriber's pace, and nothing queues without bound;
/// - another thread that is itself waiting, directly or through other waiting threads, for a
///   delivery the caller is making (two subjects whose subscribers send into each other, fed
///   from two threads): waiting would deadlock, so the caller queues the value for the holder,
///   as if it were re-entrant, and returns. ``TurnWaitGraph`` finds such cycles; it is consulted
///   only when a thread is about to wait.
///
/// The waiting line keeps the threads that wait now, and no more than as many slots again for
/// those already served: it is compacted as the turn is handed on, so its storage is bounded by
/// the number of threads waiting at once, however long the contention lasts.
///
/// The turn is plain state guarded by its owner's lock: `claim()`, `pass()` and
/// `dismissAll()` are called with that lock held; `TurnWaiter.park()` and `wake()` without it.
/// After `park()` returns, the waiter takes the owner's lock and reads `granted` to learn
/// whether it holds the turn (handed over by `pass()`) or was dismissed (the subscriber went
/// away).
@usableFromInline
package struct DeliveryTurn {
    /// The thread delivering now, or `ThreadIdentity.none`.
    @usableFromInline
    package var holder: Int
    /// The waiting line: `waiters[waitersHead...]` wait; the slots before the head were served.
    @usableFromInline
    package var waiters: [TurnWaiter] = []
    /// ``waitersHead`` and ``waiterSlotsHighWater`` in 32 bits each, side by side: every
    /// subscriber's state carries a turn, and the line is never longer than the number of
    /// threads waiting at once.
    @usableFromInline
    package var head: Int32 = 0
    @usableFromInline
    package var slotsHighWater: Int32 = 0
    /// This turn in the ``TurnWaitGraph`` while threads wait for it, else nil.
    @usableFromInline
    package var contended: TurnWaitGraph.Turn?

    /// The first slot of ``waiters`` that still waits.
    @inlinable
    package var waitersHead: Int { Int(head) }

    /// The most slots the waiting line has used at once (served ones included): at most twice
    /// the number of threads that waited at once.
    @inlinable
    package var waiterSlotsHighWater: Int { Int(slotsHighWater) }

    /// A turn held by `holder` (the thread that subscribes holds it until the subscription is
    /// handed over).
    @inlinable
    package init(holder: Int = ThreadIdentity.none) {
        self.holder = holder
    }

    /// The outcome of ``claim(for:)``.
    @usableFromInline
    package enum Claim {
        /// The caller holds the turn now.
        case granted
        /// The caller already holds it: it is inside the subscriber. Queue the event for the
        /// delivery under way.
        case reentrant
        /// Another thread holds it and waits, directly or through others, for a delivery the
        /// caller is making: queue the event for the holder, as for `reentrant`.
        case queue
        /// Another thread holds it: park on the waiter outside the lock.
        case wait(TurnWaiter)
    }

    @inlinable
    package var isHeld: Bool { holder != ThreadIdentity.none }

    @inlinable
    package var hasWaiters: Bool { waitersHead < waiters.count }

    /// Takes the turn for `thread`, or says why not.
    @inlinable
    package mutating func claim(for thread: Int) -> Claim {
        if holder == ThreadIdentity.none {
            holder = thread
            return .granted
        }
        if holder == thread { return .reentrant }
        return line(up: thread)
    }

    /// Puts `thread` in the waiting line, unless waiting would close a cycle of threads waiting
    /// for each other (the contended path of ``claim(for:)``).
    @usableFromInline
    package mutating func line(up thread: Int) -> Claim {
        let node: TurnWaitGraph.Turn
        if let contended {
            node = contended
        } else {
            node = TurnWaitGraph.Turn(holder: holder)
        }
        guard TurnWaitGraph.shared.enter(thread, waitingFor: node) else { return .queue }
        contended = node
        let waiter = TurnWaiter(thread: thread)
        waiters.append(waiter)
        if waiters.count > waiterSlotsHighWater { slotsHighWater = Int32(truncatingIfNeeded: waiters.count) }
        return .wait(waiter)
    }

    /// Hands the turn to the first waiter, to be woken outside the lock, or lets it go.
    @inlinable
    package mutating func pass() -> TurnWaiter? {
        guard hasWaiters else {
            letGo()
            return nil
        }
        return handToNext()
    }

    /// Hands the turn to the first waiter and compacts the line: once the served slots are half
    /// of it, they are dropped (each slot is moved at most once per slot served, so handing on
    /// stays O(1) amortised).
    @usableFromInline
    package mutating func handToNext() -> TurnWaiter {
        let next = waiters[waitersHead]
        head += 1
        next.grant()
        holder = next.thread
        if let contended { TurnWaitGraph.shared.hand(contended, to: next.thread) }
        if waitersHead == waiters.count {
            waiters.removeAll(keepingCapacity: true)
            head = 0
            contended = nil
        } else if waitersHead * 2 >= waiters.count {
            waiters.removeSubrange(..<waitersHead)
            head = 0
        }
        return next
    }

    /// Lets the turn go; call when nobody waits.
    @inlinable
    package mutating func letGo() {
        holder = ThreadIdentity.none
        if !waiters.isEmpty {
            waiters.removeAll(keepingCapacity: true)
            head = 0
        }
    }

    /// Sends every waiter away without the turn (the subscriber is gone); wake them outside the
    /// lock. The holder keeps the turn until it lets go.
    @inlinable
    package mutating func dismissAll() -> ArraySlice<TurnWaiter> {
        defer {
            waiters = []
            head = 0
        }
        let dismissed = waiters[waitersHead...]
        if contended != nil {
            TurnWaitGraph.shared.dismiss(dismissed)
            contended = nil
        }
        return dismissed
    }
}

/// A thread waiting for a ``DeliveryTurn``.
///
/// It parks on a pthread mutex and condition variable (visible to ThreadSanitizer); waiting is
/// the slow path, taken only when two threads deliver to one subscriber at once. Unchecked
/// sharing: `woken` is guarded by `mutex`, which a condition variable needs as its own, so it
/// cannot live in a ``LockedState``.
@usableFromInline
package final class TurnWaiter: @unchecked Sendable {
    @usableFromInline
    package let thread: Int
    /// Set by `DeliveryTurn.pass()`. Read and written only with the turn owner's lock held,
    /// which orders the accesses; atomic only so that the compiler can check the sharing.
    @usableFromInline
    package let isGranted = Atomic<Bool>(false)

    package let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    package let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Whether `wake()` has run; read and written only with `mutex` held.
    package var woken = false

    @usableFromInline
    package init(thread: Int) {
        self.thread = thread
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    /// Whether the waiter was handed the turn (rather than sent away); read with the turn
    /// owner's lock held, after `park()` has returned.
    @inlinable
    package var granted: Bool { isGranted.load(ordering: .relaxed) }

    /// Hands the turn to the waiter; call with the turn owner's lock held.
    @inlinable
    package func grant() {
        isGranted.store(true, ordering: .relaxed)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deinitialize(count: 1)
        mutex.deinitialize(count: 1)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Blocks until `wake()`; call without holding any lock.
    @usableFromInline
    package func park() {
        pthread_mutex_lock(mutex)
        while !woken {
            pthread_cond_wait(condition, mutex)
        }
        pthread_mutex_unlock(mutex)
    }

    /// Lets `park()` return; call without holding the turn owner's lock.
    @usableFromInline
    package func wake() {
        pthread_mutex_lock(mutex)
        woken = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }
}

/// A number that identifies the calling thread while it runs (its pthread handle).
@usableFromInline
package enum ThreadIdentity {
    /// No thread; also never a thread's identity.
    @inlinable
    package static var none: Int { 0 }

    /// The calling thread.
    @inlinable
    package static var current: Int {
        #if canImport(Darwin)
        Int(bitPattern: pthread_self())
        #else
        Int(bitPattern: UInt(pthread_self()))
        #endif
    }
}
