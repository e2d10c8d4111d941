import Dispatch
import Foundation
@testable import Streams
import StreamsTesting
import Testing

/// A thing whose lifetime a test watches through a weak reference.
private final class Payload: Sendable {}

/// The timers of `DispatchQueue`'s scheduler on real queues and real time: where work runs, in
/// which order, when it stops, and what it keeps. Waits are short and bounded from below only
/// (a timer never fires early); the upper limits are generous, so a loaded machine cannot make
/// them fail. Nothing here asserts speed.
@Suite("DispatchQueue timers")
struct DispatchQueueTimerTests {
    typealias Time = DispatchQueue.SchedulerTimeType

    static var limit: DispatchTime { .now() + .seconds(30) }

    /// Returns once every block queued on `queue` so far, and every tick it started, has run.
    static func drain(_ queue: DispatchQueue, after milliseconds: Int = 30) {
        let drained = DispatchSemaphore(value: 0)
        queue.asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { drained.signal() }
        #expect(drained.wait(timeout: limit) == .success)
    }

    @Test func oneShotAndRepeatingWorkRunOnItsQueue() {
        let queue = DispatchQueue(label: "timers.own-queue")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "own")
        let seen = Locked<[String?]>([])
        let done = DispatchSemaphore(value: 0)
        queue.schedule(after: queue.now.advanced(by: .milliseconds(5))) {
            dispatchPrecondition(condition: .onQueue(queue))
            seen.withLock { $0.append(DispatchQueue.getSpecific(key: key)) }
            done.signal()
        }
        let ticks = queue.schedule(after: queue.now, interval: .milliseconds(2)) {
            dispatchPrecondition(condition: .onQueue(queue))
            seen.withLock { $0.append(DispatchQueue.getSpecific(key: key)) }
            done.signal()
        }
        #expect(done.wait(timeout: Self.limit) == .success)
        #expect(done.wait(timeout: Self.limit) == .success)
        #expect(done.wait(timeout: Self.limit) == .success)
        ticks.cancel()
        #expect(seen.withLock { $0.count } >= 3)
        #expect(seen.withLock { $0.allSatisfy { $0 == "own" } })
    }

    @Test func theOptionsFlagsReachTheQueue() {
        let queue = DispatchQueue(label: "timers.barrier", attributes: .concurrent)
        let longRunning = Locked(false)
        let sawItDone = Locked<[Bool]>([])
        let started = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        queue.async {
            started.signal()
            Thread.sleep(forTimeInterval: 0.03)
            longRunning.withLock { $0 = true }
        }
        #expect(started.wait(timeout: Self.limit) == .success)
        // A barrier waits for the block already running on the concurrent queue.
        let barrier = DispatchQueue.SchedulerOptions(flags: .barrier)
        queue.schedule(after: queue.now, tolerance: .zero, options: barrier) {
            sawItDone.withLock { $0.append(longRunning.withLock { $0 }) }
            done.signal()
        }
        let ticks = queue.schedule(after: queue.now, interval: .seconds(60), tolerance: .zero, options: barrier) {
            sawItDone.withLock { $0.append(longRunning.withLock { $0 }) }
            done.signal()
        }
        #expect(done.wait(timeout: Self.limit) == .success)
        #expect(done.wait(timeout: Self.limit) == .success)
        ticks.cancel()
        #expect(sawItDone.withLock { $0 } == [true, true])
    }

    @Test func workDueAtTheSameTimeRunsInTheOrderItWasScheduled() {
        let queue = DispatchQueue(label: "timers.fifo")
        let order = Locked<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        let date = queue.now.advanced(by: .milliseconds(10))
        var repeating: [any Cancellable] = []
        for index in 0..<40 {
            if index % 4 == 3 {
                // Repeating work at the same date takes its turn with the one-shot work.
                repeating.append(
                    queue.schedule(after: date, interval: .seconds(60)) { order.withLock { $0.append(index) } })
            } else {
                queue.schedule(after: date) {
                    order.withLock { $0.append(index) }
                    if index == 38 { done.signal() }
                }
            }
        }
        #expect(done.wait(timeout: Self.limit) == .success)
        Self.drain(queue, after: 5)
        #expect(order.withLock { $0 } == Array(0..<40))
        repeating.forEach { $0.cancel() }
    }

    @Test func repeatingWorkCancelledBeforeItsFirstTickNeverRuns() {
        let queue = DispatchQueue(label: "timers.cancel-early")
        let ran = Locked(0)
        let ticks = queue.schedule(after: queue.now.advanced(by: .milliseconds(10)), interval: .milliseconds(1)) {
            ran.withLock { $0 += 1 }
        }
        ticks.cancel()
        Self.drain(queue)
        #expect(ran.withLock { $0 } == 0)
    }

    @Test func aTickHandedToTheQueueButNotStartedDoesNotRunAfterTheCancel() {
        let queue = DispatchQueue(label: "timers.cancel-queued")
        let ran = Locked(0)
        let blocked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // Hold the queue, so that the first tick waits on it, handed over but not started.
        queue.async {
            blocked.signal()
            release.wait()
        }
        #expect(blocked.wait(timeout: Self.limit) == .success)
        let ticks = queue.schedule(after: queue.now, interval: .seconds(60)) { ran.withLock { $0 += 1 } }
        Thread.sleep(forTimeInterval: 0.02)
        ticks.cancel()
        release.signal()
        Self.drain(queue)
        #expect(ran.withLock { $0 } == 0)
    }

    @Test func cancellingFromOtherThreadsWhileTicksRunIsSafeAndFinal() {
        let queue = DispatchQueue(label: "timers.cancel-race")
        let counts = (0..<16).map { _ in Locked(0) }
        let entries = counts.map { count in
            AnyCancellable(queue.schedule(after: queue.now, interval: .microseconds(200)) { count.withLock { $0 += 1 } })
        }
        Thread.sleep(forTimeInterval: 0.01)
        DispatchQueue.concurrentPerform(iterations: entries.count) { index in
            entries[index].cancel()
            entries[index].cancel()  // a second cancel does nothing
        }
        // A tick that started before its cancel ends before this block runs; none starts after.
        queue.sync {}
        let final = counts.map { $0.withLock { $0 } }
        Self.drain(queue)
        #expect(counts.map { $0.withLock { $0 } } == final)
    }

    @Test func zeroIntervalTicksBackToBackUntilCancelledInsideTheAction() {
        let queue = DispatchQueue(label: "timers.zero-interval")
        let ticks = Locked(0)
        let fifth = DispatchSemaphore(value: 0)
        let holder = Locked<(any Cancellable)?>(nil)
        queue.sync {
            let entry = queue.schedule(after: queue.now, interval: .zero) {
                let count = ticks.withLock { count in
                    count += 1
                    return count
                }
                if count == 5 {
                    holder.withLock { $0?.cancel() }
                    fifth.signal()
                }
            }
            holder.withLock { $0 = entry }
        }
        #expect(fifth.wait(timeout: Self.limit) == .success)
        Self.drain(queue)
        #expect(ticks.withLock { $0 } == 5)
    }

    @Test func cancellingReleasesTheActionAndTheQueueAtOnce() {
        weak var payload: Payload?
        weak var weakQueue: DispatchQueue?
        let ticks: any Cancellable
        do {
            let queue = DispatchQueue(label: "timers.release")
            let held = Payload()
            payload = held
            weakQueue = queue
            ticks = queue.schedule(after: queue.now.advanced(by: .seconds(60)), interval: .seconds(60)) {
                withExtendedLifetime(held) {}
            }
        }
        #expect(payload != nil)
        ticks.cancel()
        #expect(payload == nil)
        #expect(weakQueue == nil)
    }

    @Test func oneShotWorkIsReleasedOnceItHasRun() {
        weak var payload: Payload?
        let queue = DispatchQueue(label: "timers.one-shot-release")
        let done = DispatchSemaphore(value: 0)
        do {
            let held = Payload()
            payload = held
            queue.schedule(after: queue.now.advanced(by: .milliseconds(5))) {
                withExtendedLifetime(held) {}
                done.signal()
            }
        }
        #expect(done.wait(timeout: Self.limit) == .success)
        queue.sync {}
        #expect(payload == nil)
    }

    @Test func repeatingTicksFollowTheirIntervalAndDoNotPileUpAfterAStall() {
        let queue = DispatchQueue(label: "timers.stall")
        let starts = Locked<[UInt64]>([])
        let stallEnded = Locked<UInt64>(0)
        let done = DispatchSemaphore(value: 0)
        let holder = Locked<(any Cancellable)?>(nil)
        let interval = 10_000_000 as UInt64
        let first = queue.now.advanced(by: .milliseconds(5))
        queue.sync {
            let entry = queue.schedule(after: first, interval: .nanoseconds(Int(interval))) {
                let count = starts.withLock { starts in
                    starts.append(DispatchTime.now().uptimeNanoseconds)
                    return starts.count
                }
                if count == 2 {
                    // A stall of five intervals.
                    Thread.sleep(forTimeInterval: 0.05)
                    stallEnded.withLock { $0 = DispatchTime.now().uptimeNanoseconds }
                }
                if count == 6 {
                    holder.withLock { $0?.cancel() }
                    done.signal()
                }
            }
            holder.withLock { $0 = entry }
        }
        #expect(done.wait(timeout: Self.limit) == .success)
        let times = starts.withLock { $0 }
        let origin = first.dispatchTime.uptimeNanoseconds
        // No tick before its place on the grid `first + k * interval`.
        #expect(times[0] >= origin)
        #expect(times[1] >= origin + interval)
        // The ticks missed in the stall make one tick, at once; the next ones keep to the grid,
        // so the fifth and sixth come at least one and two intervals after the stall.
        let end = stallEnded.withLock { $0 }
        #expect(times[2] >= end)
        #expect(times[4] > end + interval - 1_000_000)
        #expect(times[5] > end + 2 * interval - 1_000_000)
        #expect(times[5] - origin < 30_000_000_000)
    }

    @Test func cancelledEntriesLeaveTheHeapAtOnce() {
        let queue = DispatchQueue(label: "timers.storm")
        let before = DispatchTimerEngine.shared.pendingCount
        // A debounce's pattern: each new timer replaces the previous one.
        var previous: (any Cancellable)?
        for _ in 0..<10_000 {
            let next = queue.schedule(after: queue.now.advanced(by: .seconds(60)), interval: .seconds(60)) {}
            previous?.cancel()
            previous = next
        }
        // Other tests' timers come and go meanwhile; the storm's 9,999 dead ones are not there.
        #expect(DispatchTimerEngine.shared.pendingCount < before + 200)
        previous?.cancel()
    }

    @Test func aDatePastRunsAtOnce() {
        let queue = DispatchQueue(label: "timers.past")
        let done = DispatchSemaphore(value: 0)
        queue.schedule(after: queue.now.advanced(by: .seconds(-5))) { done.signal() }
        let ticks = queue.schedule(after: Time(DispatchTime(uptimeNanoseconds: 1)), interval: .seconds(60)) {
            done.signal()
        }
        #expect(done.wait(timeout: Self.limit) == .success)
        #expect(done.wait(timeout: Self.limit) == .success)
        ticks.cancel()
    }

    @Test func aDateDispatchCannotRepresentNeverComes() {
        let queue = DispatchQueue(label: "timers.never")
        let ran = Locked(0)
        weak var payload: Payload?
        let far = [
            Time(.distantFuture), queue.now.advanced(by: .nanoseconds(.max)),
            Time(DispatchTime(uptimeNanoseconds: 1 << 62)),
        ]
        var ticks: [any Cancellable] = []
        do {
            let held = Payload()
            payload = held
            for date in far {
                queue.schedule(after: date) {
                    withExtendedLifetime(held) {}
                    ran.withLock { $0 += 1 }
                }
                ticks.append(queue.schedule(after: date, interval: .milliseconds(1)) { ran.withLock { $0 += 1 } })
            }
        }
        // One-shot work that never comes is released at once.
        #expect(payload == nil)
        Self.drain(queue)
        #expect(ran.withLock { $0 } == 0)
        ticks.forEach { $0.cancel() }
    }
}
