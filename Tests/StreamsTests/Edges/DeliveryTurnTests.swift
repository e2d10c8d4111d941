@testable import Streams
import Testing

/// The delivery turn on its own: the waiting line's storage and the waits it refuses because
/// they would deadlock. Threads are plain numbers here, chosen apart from those of the other
/// suites, since the wait graph is shared by the whole process.
@Suite struct DeliveryTurnTests {
    /// Sustained contention: seven threads wait behind the holder, and each thread handed the
    /// turn lines up again as soon as it has delivered, so the line is never empty. Its storage
    /// stays at twice the threads waiting at once, however many turns are taken.
    @Test func theWaitingLineStaysBoundedWhileItIsNeverEmpty() {
        let threads = (0..<8).map { 71_000 + $0 }
        var turn = DeliveryTurn(holder: threads[0])
        var lined: [TurnWaiter] = []
        for thread in threads.dropFirst() {
            guard case .wait(let waiter) = turn.claim(for: thread) else { Issue.record("no wait"); return }
            lined.append(waiter)
        }
        let turns = 10_000
        for _ in 0..<turns {
            let previous = turn.holder
            guard let next = turn.pass() else { Issue.record("nobody waited"); return }
            #expect(next.granted && turn.holder == next.thread)
            guard case .wait = turn.claim(for: previous) else { Issue.record("no wait"); return }
        }
        #expect(turn.waiterSlotsHighWater <= 2 * (threads.count - 1))
        #expect(turn.waiters.capacity <= 4 * threads.count)
        #expect(turn.waiters.count - turn.waitersHead == threads.count - 1)
        _ = turn.dismissAll()
        #expect(turn.contended == nil)
    }

    /// First come, first served survives the compaction.
    @Test func compactionKeepsTheOrderOfTheLine() {
        var turn = DeliveryTurn(holder: 72_000)
        var order: [Int] = []
        var next = 72_001
        for _ in 0..<3 {
            _ = turn.claim(for: next)
            next += 1
        }
        for _ in 0..<50 {
            guard let waiter = turn.pass() else { Issue.record("nobody waited"); return }
            order.append(waiter.thread)
            _ = turn.claim(for: next)
            next += 1
        }
        #expect(order == Array(72_001..<72_051))
        _ = turn.dismissAll()
    }

    /// Two threads, each holding one turn: the first waits for the other's turn; the second,
    /// asking for the first's turn, would wait for a thread that waits for it, so it is told to
    /// queue its event instead.
    @Test func aWaitThatWouldCloseACycleOfTwoIsRefused() {
        var x = DeliveryTurn(holder: 73_001)
        var y = DeliveryTurn(holder: 73_002)
        guard case .wait(let waiter) = y.claim(for: 73_001) else { Issue.record("no wait"); return }
        guard case .queue = x.claim(for: 73_002) else { Issue.record("a deadlocking wait"); return }
        #expect(!x.hasWaiters)
        // Once the first thread is handed the turn it waited for, nobody waits: a wait is fine.
        #expect(y.pass() === waiter)
        guard case .wait = x.claim(for: 73_002) else { Issue.record("no wait"); return }
        _ = x.dismissAll()
        _ = y.dismissAll()
    }

    /// A cycle through three threads.
    @Test func aWaitThatWouldCloseALongerCycleIsRefused() {
        var x = DeliveryTurn(holder: 74_001)
        var y = DeliveryTurn(holder: 74_002)
        var z = DeliveryTurn(holder: 74_003)
        guard case .wait = y.claim(for: 74_001) else { Issue.record("no wait"); return }
        guard case .wait = z.claim(for: 74_002) else { Issue.record("no wait"); return }
        guard case .queue = x.claim(for: 74_003) else { Issue.record("a deadlocking wait"); return }
        _ = x.dismissAll()
        _ = y.dismissAll()
        _ = z.dismissAll()
    }

    /// The threads still in line wait for whoever the turn is handed to, not for its first
    /// holder: a turn held by A, then B and C in line, B handed the turn; C (holding a turn of
    /// its own) now waits for B, so B may not wait for C's turn.
    @Test func theLineWaitsForTheThreadTheTurnWasHandedTo() {
        var v = DeliveryTurn(holder: 74_011)
        var w = DeliveryTurn(holder: 74_013)
        guard case .wait = v.claim(for: 74_012) else { Issue.record("no wait"); return }
        guard case .wait = v.claim(for: 74_013) else { Issue.record("no wait"); return }
        #expect(v.pass()?.thread == 74_012)
        guard case .queue = w.claim(for: 74_012) else { Issue.record("a deadlocking wait"); return }
        // The first holder, which waits for nothing, may wait for C's turn.
        guard case .wait = w.claim(for: 74_011) else { Issue.record("no wait"); return }
        _ = v.dismissAll()
        _ = w.dismissAll()
    }

    /// Dismissed waiters wait for nothing any more.
    @Test func dismissedWaitersLeaveTheGraph() {
        var x = DeliveryTurn(holder: 75_001)
        var y = DeliveryTurn(holder: 75_002)
        guard case .wait = y.claim(for: 75_001) else { Issue.record("no wait"); return }
        #expect(y.dismissAll().count == 1)
        guard case .wait = x.claim(for: 75_002) else { Issue.record("no wait"); return }
        _ = x.dismissAll()
    }
}
