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
///   producer simply runs at the subscriber's pace, and nothing queues without bound.
///
/// The turn is plain state guarded by its owner's lock: `claim()`, `pass()` and
/// `dismissAll()` are called with that lock held; `TurnWaiter.park()` and `wake()` without it.
/// After `park()` returns, the waiter takes the owner's lock and reads `granted` to learn
/// whether it holds the turn (handed over by `pass()`) or was dismissed (the subscriber went
/// away).
@usableFromInline
struct DeliveryTurn {
    /// The thread delivering now, or `ThreadIdentity.none`.
    @usableFromInline
    var holder: Int
    @usableFromInline
    var waiters: [TurnWaiter] = []
    @usableFromInline
    var waitersHead = 0

    /// A turn held by `holder` (the thread that subscribes holds it until the subscription is
    /// handed over).
    @inlinable
    init(holder: Int = ThreadIdentity.none) {
        self.holder = holder
    }

    /// The outcome of ``claim(for:)``.
    @usableFromInline
    enum Claim {
        /// The caller holds the turn now.
        case granted
        /// The caller already holds it: it is inside the subscriber.
        case reentrant
        /// Another thread holds it: park on the waiter outside the lock.
        case wait(TurnWaiter)
    }

    @inlinable
    var isHeld: Bool { holder != ThreadIdentity.none }

    @inlinable
    var hasWaiters: Bool { waitersHead < waiters.count }

    /// Takes the turn for `thread`, or says why not.
    @inlinable
    mutating func claim(for thread: Int) -> Claim {
        if holder == ThreadIdentity.none {
            holder = thread
            return .granted
        }
        if holder == thread { return .reentrant }
        let waiter = TurnWaiter(thread: thread)
        waiters.append(waiter)
        return .wait(waiter)
    }

    /// Hands the turn to the first waiter, to be woken outside the lock, or lets it go.
    @inlinable
    mutating func pass() -> TurnWaiter? {
        guard hasWaiters else {
            letGo()
            return nil
        }
        let next = waiters[waitersHead]
        waitersHead += 1
        next.granted = true
        holder = next.thread
        return next
    }

    /// Lets the turn go; call when nobody waits.
    @inlinable
    mutating func letGo() {
        holder = ThreadIdentity.none
        if !waiters.isEmpty {
            waiters.removeAll(keepingCapacity: true)
            waitersHead = 0
        }
    }

    /// Sends every waiter away without the turn (the subscriber is gone); wake them outside the
    /// lock. The holder keeps the turn until it lets go.
    @inlinable
    mutating func dismissAll() -> ArraySlice<TurnWaiter> {
        defer {
            waiters = []
            waitersHead = 0
        }
        return waiters[waitersHead...]
    }
}

/// A thread waiting for a ``DeliveryTurn``.
///
/// It parks on a pthread mutex and condition variable (visible to ThreadSanitizer); waiting is
/// the slow path, taken only when two threads deliver to one subscriber at once.
@usableFromInline
final class TurnWaiter: @unchecked Sendable {
    @usableFromInline
    let thread: Int
    /// Set by `DeliveryTurn.pass()`; guarded by the turn owner's lock.
    @usableFromInline
    var granted = false

    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`.
    var woken = false

    @usableFromInline
    init(thread: Int) {
        self.thread = thread
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
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
    func park() {
        pthread_mutex_lock(mutex)
        while !woken {
            pthread_cond_wait(condition, mutex)
        }
        pthread_mutex_unlock(mutex)
    }

    /// Lets `park()` return; call without holding the turn owner's lock.
    @usableFromInline
    func wake() {
        pthread_mutex_lock(mutex)
        woken = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }
}

/// A number that identifies the calling thread while it runs (its pthread handle).
@usableFromInline
enum ThreadIdentity {
    /// No thread; also never a thread's identity.
    @inlinable
    static var none: Int { 0 }

    /// The calling thread.
    @inlinable
    static var current: Int {
        #if canImport(Darwin)
        Int(bitPattern: pthread_self())
        #else
        Int(bitPattern: UInt(pthread_self()))
        #endif
    }
}
