import Synchronization

/// Which thread waits for which across every ``DeliveryTurn``, so that no wait closes a cycle.
///
/// A thread that finds a turn held by another thread waits for it; the holder may itself be
/// waiting for a turn, possibly one that the first thread holds: two subjects whose subscribers
/// send into each other, fed from two threads, each thread inside one subscriber and sending
/// into the other. Before a thread waits, the graph follows the chain from the turn's holder
/// through the turns each holder waits for; if the chain leads back to the thread, waiting would
/// deadlock, and the turn tells the thread to queue its event for the holder instead
/// (``DeliveryTurn/Claim/queue``). Every thread in such a chain is parked except the one that
/// would close it, so that thread goes on, ends its own delivery, and the chain unwinds.
///
/// Only the contended path touches the graph: a turn enters it when a thread lines up for it,
/// and leaves it when its last waiter is handed the turn or sent away. Its state is guarded by
/// one lock, taken with a turn owner's lock held (never the other way round), and nothing is
/// called while it is held.
@usableFromInline
package final class TurnWaitGraph: Sendable {
    /// A turn that threads wait for.
    @usableFromInline
    package final class Turn: Sendable {
        /// The thread holding the turn. Read and written only with the graph's lock held, which
        /// orders the accesses; atomic only so that the compiler can check the sharing.
        @usableFromInline
        package let holder: Atomic<Int>

        @usableFromInline
        package init(holder: Int) {
            self.holder = Atomic(holder)
        }
    }

    /// The graph of the process.
    @usableFromInline
    package static let shared = TurnWaitGraph()

    /// The turn each waiting thread waits for.
    package let state = LockedState<[Int: Turn]>([:])

    /// Records that `thread` waits for `turn` and returns true, or returns false (recording
    /// nothing) when the turn's holder waits, directly or through other waiting threads, for
    /// `thread`.
    @usableFromInline
    package func enter(_ thread: Int, waitingFor turn: Turn) -> Bool {
        state.withLock { waiting in
            var holder = turn.holder.load(ordering: .relaxed)
            // Each waiting thread is visited at most once on a chain without a cycle.
            var steps = 0
            while holder != thread {
                guard let next = waiting[holder], steps < waiting.count else {
                    waiting[thread] = turn
                    return true
                }
                holder = next.holder.load(ordering: .relaxed)
                steps += 1
            }
            return false
        }
    }

    /// `thread`, which waited for `turn`, now holds it.
    @usableFromInline
    package func hand(_ turn: Turn, to thread: Int) {
        state.withLock { waiting in
            turn.holder.store(thread, ordering: .relaxed)
            waiting[thread] = nil
        }
    }

    /// The `waiters` were sent away without the turn they waited for.
    @usableFromInline
    package func dismiss(_ waiters: ArraySlice<TurnWaiter>) {
        state.withLock { waiting in
            for waiter in waiters { waiting[waiter.thread] = nil }
        }
    }
}
