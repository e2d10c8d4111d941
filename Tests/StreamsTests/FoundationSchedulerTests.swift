import Dispatch
import Foundation
import Streams
import StreamsTesting
import Synchronization
import Testing

/// A few checks on `RunLoop` and `OperationQueue` as schedulers. Like the `DispatchQueue` tests,
/// they wait for events (with a generous limit so that a bug fails instead of hanging) and
/// assert what happened, never how long it took.
@Suite("RunLoop and OperationQueue as schedulers")
struct FoundationSchedulerTests {
    static var limit: Date { Date() + 30 }

    /// Runs the current run loop until `done()` or the limit.
    private func runCurrentRunLoop(until done: () -> Bool) {
        let limit = Self.limit
        while !done() && Date() < limit {
            _ = RunLoop.current.run(mode: .default, before: Date() + 0.01)
        }
    }

    @Test func dateSchedulerTimeArithmetic() {
        let start = RunLoop.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 100))
        let later = start.advanced(by: .milliseconds(1_500))
        #expect(later.date == Date(timeIntervalSinceReferenceDate: 101.5))
        #expect(start.distance(to: later) == .seconds(1.5))
        #expect(later.distance(to: start).timeInterval == -1.5)
        #expect(OperationQueue.SchedulerTimeType.Stride.microseconds(250).timeInterval == 0.000_25)
        #expect(RunLoop.SchedulerTimeType.Stride.nanoseconds(1) < .microseconds(1))
        #expect(RunLoop.SchedulerTimeType.Stride(exactly: 3) == 3)
        let stride: RunLoop.SchedulerTimeType.Stride = 0.5
        #expect(stride + .seconds(1) == .seconds(1.5))
    }

    @Test func runLoopRunsWorkInOrder() {
        let runLoop = RunLoop.current
        let log = Log<String>()
        runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(1))) { log.append("after") }
        runLoop.schedule { log.append("next turn") }
        runCurrentRunLoop { log.items.count == 2 }
        #expect(log.items == ["next turn", "after"])
    }

    /// Foundation on Linux never frees a timer added to a run loop: what the scheduled work
    /// captures must still be released once it has run or was cancelled.
    @Test func runLoopWorkIsReleasedOnceRunOrCancelled() {
        let runLoop = RunLoop.current
        weak var once: Tracked?
        weak var repeating: Tracked?
        let ran = Log<String>()
        var cancellable: (any Cancellable)?
        do {
            let first = Tracked()
            let second = Tracked()
            (once, repeating) = (first, second)
            runLoop.schedule(after: runLoop.now) { withExtendedLifetime(first) { ran.append("once") } }
            cancellable = runLoop.schedule(after: runLoop.now, interval: .milliseconds(1)) {
                withExtendedLifetime(second) { ran.append("repeating") }
            }
        }
        runCurrentRunLoop { ran.items.contains("once") && ran.items.contains("repeating") }
        #expect(once == nil)
        #expect(repeating != nil)
        cancellable?.cancel()
        #expect(repeating == nil)
    }

    @Test func aCancelledTimerPublishLetsGoOfItsSubject() {
        weak var subject: AnyObject?
        let ticks = Log<Date>()
        var connection: (any Cancellable)?
        var subscription: AnyCancellable?
        do {
            let timer = Timer.publish(every: 0.001, on: .current, in: .default)
            subject = Mirror(reflecting: timer).descendant("subject") as AnyObject?
            subscription = timer.sink { ticks.append($0) }
            connection = timer.connect()
        }
        runCurrentRunLoop { !ticks.items.isEmpty }
        #expect(subject != nil)
        connection?.cancel()
        subscription?.cancel()
        #expect(subject == nil)
    }

    @Test func runLoopRepeatsUntilCancelled() {
        let runLoop = RunLoop.current
        let count = Locked(0)
        let repeating = runLoop.schedule(after: runLoop.now, interval: .milliseconds(1)) {
            count.withLock { $0 += 1 }
        }
        runCurrentRunLoop { count.withLock { $0 } >= 3 }
        repeating.cancel()
        let afterCancel = count.withLock { $0 }
        _ = RunLoop.current.run(mode: .default, before: Date())
        #expect(afterCancel >= 3)
        #expect(count.withLock { $0 } == afterCancel)
    }

    @Test func receiveOnARunLoopDeliversOnItsThread() {
        let runLoop = RunLoop.current
        let log = Log<Int>()
        var finished = false
        let cancellable = [1, 2, 3].publisher
            .receive(on: runLoop)
            .sink(receiveCompletion: { _ in finished = true }, receiveValue: { log.append($0) })
        // Nothing arrives until the run loop turns.
        #expect(log.items.isEmpty)
        runCurrentRunLoop { finished }
        #expect(log.items == [1, 2, 3])
        cancellable.cancel()
    }

    @Test func operationQueueRunsWorkNowAndLater() {
        let queue = OperationQueue()
        let done = DispatchSemaphore(value: 0)
        let log = Locked<[String]>([])
        queue.schedule {
            log.withLock { $0.append("now") }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        queue.schedule(after: queue.now.advanced(by: .milliseconds(1))) {
            log.withLock { $0.append("later") }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(log.withLock { $0 } == ["now", "later"])
    }

    @Test func operationQueueRepeatsUntilCancelled() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let third = DispatchSemaphore(value: 0)
        let count = Locked(0)
        let repeating = queue.schedule(after: queue.now, interval: .milliseconds(1)) {
            if count.withLock({
                $0 += 1; return $0
            }) == 3 {
                third.signal()
            }
        }
        #expect(third.wait(timeout: .now() + 30) == .success)
        repeating.cancel()
        queue.waitUntilAllOperationsAreFinished()
        #expect(count.withLock { $0 } >= 3)
    }

    @Test func operationQueueTakesIntervalsTooLongToCountInNanoseconds() {
        let queue = OperationQueue()
        let never = queue.schedule(after: queue.now.advanced(by: .seconds(1e12)), interval: .seconds(1e12)) {
            Issue.record("a timer a trillion seconds away fired")
        }
        never.cancel()
    }

    /// Runs `body` on another thread and waits for it to return, up to the limit; false if it
    /// did not.
    private func returns(_ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        return done.wait(timeout: .now() + 30) == .success
    }

    @Test func operationQueueAddsWorkForNowAsOneBlockOperation() throws {
        let queue = RecordingOperationQueue()
        let runs = Locked(0)
        queue.schedule { runs.withLock { $0 += 1 } }
        // One call, with the operation: not the block form, which would add a second call.
        #expect(queue.additions.count == 1)
        let operation = try #require(queue.addedOperations.first)
        #expect(operation is BlockOperation)
        #expect(returns { queue.waitUntilAllOperationsAreFinished() })
        #expect(runs.withLock { $0 } == 1)
    }

    @Test func operationQueueAddsDelayedWorkAtOnceAsAnOperationThatWaitsForItsDate() throws {
        let queue = RecordingOperationQueue()
        weak var captured: Tracked?
        do {
            let tracked = Tracked()
            captured = tracked
            queue.schedule(after: queue.now.advanced(by: .seconds(3_600))) {
                withExtendedLifetime(tracked) { _ = Issue.record("cancelled work ran") }
            }
        }
        #expect(queue.additions.count == 1)
        let operation = try #require(queue.addedOperations.first)
        #expect(!(operation is BlockOperation))
        #expect(operation is any Cancellable)
        #expect(!operation.isReady)
        #expect(!operation.isAsynchronous)
        #expect(!operation.isExecuting)
        #expect(!operation.isFinished)
        #expect(!operation.isCancelled)
        // The queue counts and lists it while it waits; cancelling its work cancels it.
        #expect(queue.operationCount == 1)
        #expect(queue.operations.contains { $0 === operation })
        queue.cancelAllOperations()
        #expect(operation.isCancelled)
        #expect(returns { queue.waitUntilAllOperationsAreFinished() })
        #expect(operation.isFinished)
        #expect(captured == nil)
    }

    @Test func operationQueueWaitsForDelayedWorkThatRunsOnceAndLetsGo() throws {
        let queue = RecordingOperationQueue()
        let runs = Locked(0)
        weak var captured: Tracked?
        do {
            let tracked = Tracked()
            captured = tracked
            queue.schedule(after: queue.now.advanced(by: .milliseconds(5))) {
                withExtendedLifetime(tracked) { runs.withLock { $0 += 1 } }
            }
        }
        let operation = try #require(queue.addedOperations.first)
        // Waiting for the queue waits for the work, which is on it from the start.
        #expect(returns { queue.waitUntilAllOperationsAreFinished() })
        #expect(runs.withLock { $0 } == 1)
        #expect(captured == nil)
        operation.main()
        #expect(runs.withLock { $0 } == 1)
        #expect(queue.additions.count == 1)
    }

    @Test func operationQueueAddsTheFirstTickAtOnceAndCancellingCancelsIt() throws {
        let queue = RecordingOperationQueue()
        weak var captured: Tracked?
        var repeating: (any Cancellable)?
        do {
            let tracked = Tracked()
            captured = tracked
            repeating = queue.schedule(after: queue.now.advanced(by: .seconds(3_600)), interval: .seconds(1)) {
                withExtendedLifetime(tracked) { _ = Issue.record("a cancelled tick ran") }
            }
        }
        #expect(repeating is AnyCancellable)
        #expect(queue.additions.count == 1)
        let first = try #require(queue.addedOperations.first)
        #expect(!(first is BlockOperation))
        #expect(first is any Cancellable)
        #expect(!first.isReady)
        #expect(queue.operationCount == 1)
        repeating?.cancel()
        #expect(first.isCancelled)
        #expect(returns { queue.waitUntilAllOperationsAreFinished() })
        #expect(captured == nil)
        #expect(queue.additions.count == 1)
    }

    @Test func operationQueueRepeatsWithAnOperationPerTickUntilCancelled() throws {
        let queue = RecordingOperationQueue()
        let ticks = Locked(0)
        let stored = DispatchSemaphore(value: 0)
        let cancellable = Locked<(any Cancellable)?>(nil)
        weak var captured: Tracked?
        do {
            let tracked = Tracked()
            captured = tracked
            let repeating = queue.schedule(after: queue.now, interval: .milliseconds(1)) {
                withExtendedLifetime(tracked) {
                    let tick = ticks.withLock { count in
                        count += 1
                        return count
                    }
                    guard tick == 3 else { return }
                    stored.wait()
                    cancellable.withLock { $0 }?.cancel()
                }
            }
            cancellable.withLock { $0 = repeating }
            stored.signal()
        }
        #expect(returns { queue.waitUntilAllOperationsAreFinished() })
        // Each tick added the next one's operation before running its action: the fourth,
        // cancelled from the third, never ran.
        #expect(ticks.withLock { $0 } == 3)
        let added = queue.addedOperations
        #expect(queue.additions.count == 4)
        #expect(added.count == 4)
        #expect(added.allSatisfy { !($0 is BlockOperation) })
        #expect(added.last?.isCancelled == true)
        #expect(added.allSatisfy { $0.isFinished })
        cancellable.withLock { $0 = nil }
        #expect(captured == nil)
    }

    @Test func operationQueueTicksDoNotOverlapOnAConcurrentQueue() {
        let queue = OperationQueue()
        let detector = OverlapDetector()
        let ticks = Locked(0)
        let tenth = DispatchSemaphore(value: 0)
        // Each tick takes longer than the interval.
        let repeating = queue.schedule(after: queue.now, interval: .milliseconds(1)) {
            detector.run {
                usleep(2_000)
                let tick = ticks.withLock { count in
                    count += 1
                    return count
                }
                if tick == 10 { tenth.signal() }
            }
        }
        #expect(tenth.wait(timeout: .now() + 30) == .success)
        repeating.cancel()
        #expect(returns { queue.waitUntilAllOperationsAreFinished() })
        #expect(detector.overlaps == 0)
    }

    @Test func delayOnASerialOperationQueueKeepsTheOrder() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let done = DispatchSemaphore(value: 0)
        let values = Locked<[Int]>([])
        let cancellable = [1, 2, 3].publisher
            .delay(for: .milliseconds(1), scheduler: queue)
            .sink(receiveCompletion: { _ in done.signal() }, receiveValue: { value in values.withLock { $0.append(value) } })
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(values.withLock { $0 } == [1, 2, 3])
        cancellable.cancel()
    }

    @Test func timerPublishSendsDatesOnceConnected() {
        let dates = Log<Date>()
        let timer = Timer.publish(every: 0.001, on: .current, in: .default)
        let subscription = timer.sink { dates.append($0) }
        _ = RunLoop.current.run(mode: .default, before: Date())
        // Not connected: no timer, no dates.
        #expect(dates.items.isEmpty)
        let connection = timer.connect()
        runCurrentRunLoop { dates.items.count >= 3 }
        connection.cancel()
        let count = dates.items.count
        _ = RunLoop.current.run(mode: .default, before: Date())
        #expect(count >= 3)
        #expect(dates.items.count == count)
        #expect(dates.items == dates.items.sorted())
        subscription.cancel()
    }

    @Test func timerPublishWithAutoconnect() {
        let ticks = Log<Date>()
        let cancellable = Timer.publish(every: 0.001, tolerance: 0.001, on: .current, in: .common)
            .autoconnect()
            .sink { ticks.append($0) }
        runCurrentRunLoop { ticks.items.count >= 2 }
        cancellable.cancel()
        #expect(ticks.items.count >= 2)
    }

    @Test func aDroppedTimerConnectionKeepsTheTimerRunning() {
        let dates = Log<Date>()
        let timer = Timer.publish(every: 0.001, on: .current, in: .default)
        let subscription = timer.sink { dates.append($0) }
        // As in Combine, what connect() returns is not an AnyCancellable: dropping it does not
        // stop the timer.
        var connection: (any Cancellable)? = timer.connect()
        #expect(!(connection is AnyCancellable))
        let stop = connection
        connection = nil
        runCurrentRunLoop { dates.items.count >= 2 }
        #expect(dates.items.count >= 2)
        stop?.cancel()
        subscription.cancel()
    }

    @Test func timerPublishObjectsAreNotReflectable() throws {
        let timer = Timer.publish(every: 1, tolerance: 0.5, on: .current, in: .default)
        // Combine drops the tolerance (its publisher's `tolerance` is nil); Streams keeps it.
        #expect(timer.tolerance == 0.5)
        let subscriber = TestSubscriber<Date, Never>(initialDemand: nil)
        timer.subscribe(subscriber)
        let connection = timer.connect()
        defer { connection.cancel() }
        for object in [try #require(subscriber.subscription) as Any, connection as Any] {
            #expect(!(object is any CustomStringConvertible))
            #expect(!(object is any CustomDebugStringConvertible))
            #expect(!(object is any CustomReflectable))
            #expect(!(object is any CustomPlaygroundDisplayConvertible))
            #expect(!(object is NSObject))
        }
    }
}
