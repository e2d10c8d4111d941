import Dispatch
import Foundation
@testable import Streams
import StreamsResilience
import StreamsTesting
import Synchronization
import Testing

/// Waits at the extremes: a wait too long for the platform never ends (it does not wrap around
/// and run at once), and a run loop wakes for work handed to it from another thread. Every
/// test waits for events with a generous limit and never asserts how long anything took.
@Suite("Honest waits")
struct HonestWaitsTests {
    /// A retryable failure whose server asked to come back in about 3,169 years.
    struct ComeBackMuchLater: CategorizedError, RetryAfterProviding, Equatable {
        var category: ErrorCategory { .retryable }
        var retryAfter: Duration? { .seconds(99_999_999_999) }
    }

    // MARK: DispatchQueue

    @Test func aDispatchDeadlineBeyondWhatDispatchCanHoldIsNever() {
        let soon = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 5_000_000_000))
        #expect(DispatchQueue.deadline(of: soon) == soon.dispatchTime)
        let farButHeld = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: UInt64(Int64.max) - 1))
        #expect(DispatchQueue.deadline(of: farButHeld) == farButHeld.dispatchTime)
        let now = DispatchQueue(label: "clock").now
        for wait in [DispatchQueue.SchedulerTimeType.Stride.nanoseconds(.max), .seconds(Double.greatestFiniteMagnitude)] {
            #expect(DispatchQueue.deadline(of: now.advanced(by: wait)) == .distantFuture)
        }
    }

    @Test func workScheduledBeyondWhatDispatchCanHoldDoesNotRunAtOnce() {
        let queue = DispatchQueue(label: "far")
        let ran = Locked(false)
        queue.schedule(after: queue.now.advanced(by: .nanoseconds(.max))) { ran.withLock { $0 = true } }
        // Dispatch would have queued a deadline it reads as past at once, ahead of these.
        queue.sync {}
        queue.sync {}
        #expect(ran.withLock { $0 } == false)
    }

    @Test func anAbsurdRetryAfterHintOnADispatchQueueWaitsForever() {
        let queue = DispatchQueue(label: "retry")
        let subscriptions = Locked(0)
        let resubscribed = DispatchSemaphore(value: 0)
        let retries = Locked<[Duration]>([])
        let cancellable = Deferred { () -> Fail<Int, ComeBackMuchLater> in
            if subscriptions.withLock({
                $0 += 1; return $0
            }) > 1 {
                resubscribed.signal()
            }
            return Fail(error: ComeBackMuchLater())
        }
        .retry(
            1, backoff: .immediate, retryAfterLimit: RetryAfter.unbounded, scheduler: queue,
            onRetry: { attempt in retries.withLock { $0.append(attempt.delay) } }
        )
        .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        // Before the clamp the retry came within milliseconds; a second is a wide margin, and
        // a late retry would only make this test pass when it should not, never fail.
        #expect(resubscribed.wait(timeout: .now() + 1) == .timedOut)
        #expect(retries.withLock { $0 } == [.seconds(99_999_999_999)])
        #expect(subscriptions.withLock { $0 } == 1)
        cancellable.cancel()
    }

    // MARK: OperationQueue

    @Test func anOperationQueueDateMoreThanThirtyYearsAheadIsNever() {
        let inAMinute = OperationQueue.SchedulerTimeType(Date(timeIntervalSinceNow: 60))
        #expect(OperationQueue.wallTime(of: inAMinute) != .distantFuture)
        for seconds in [2e9, 1e300, .infinity, .nan] {
            let date = OperationQueue.SchedulerTimeType(Date(timeIntervalSinceNow: seconds))
            #expect(OperationQueue.wallTime(of: date) == .distantFuture)
        }
    }

    // MARK: RunLoop

    @Test func aRunLoopDatePastTheDistantFutureIsTheDistantFuture() {
        let inAMinute = RunLoop.SchedulerTimeType(Date(timeIntervalSinceNow: 60))
        #expect(RunLoop.fireDate(of: inAMinute) == inAMinute.date)
        for seconds in [1e12, 1e300, .infinity, .nan] {
            let date = RunLoop.SchedulerTimeType(Date(timeIntervalSinceNow: seconds))
            #expect(RunLoop.fireDate(of: date) == .distantFuture)
        }
    }

    @Test func workScheduledOnARunLoopFarAheadDoesNotRun() {
        let runLoop = RunLoop.current
        let log = Log<String>()
        runLoop.schedule(after: runLoop.now.advanced(by: .seconds(1e300))) { log.append("far") }
        runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(1))) { log.append("soon") }
        let limit = Date() + 30
        while log.items.isEmpty && Date() < limit {
            _ = runLoop.run(mode: .default, before: Date() + 0.01)
        }
        #expect(log.items == ["soon"])
    }

    /// A thread whose run loop sleeps in one long `run(mode:before:)` until `finish()`.
    final class SleepingRunLoop: @unchecked Sendable {
        private(set) var runLoop: RunLoop!
        private let keepAlive = Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in }
        /// Set when the long run has returned.
        let returned = Atomic(false)

        init() {
            let ready = DispatchSemaphore(value: 0)
            Thread.detachNewThread { [self] in
                runLoop = RunLoop.current
                runLoop.add(keepAlive, forMode: .default)
                ready.signal()
                _ = runLoop.run(mode: .default, before: Date() + 600)
                returned.store(true, ordering: .sequentiallyConsistent)
            }
            ready.wait()
        }

        /// Lets the long run end: with the keep-alive timer gone, the run loop has nothing to
        /// wait for.
        func finish() {
            runLoop.schedule { [self] in keepAlive.invalidate() }
        }
    }

    @Test func receiveOnASleepingRunLoopDeliversWithoutWaitingForItToWake() {
        let thread = SleepingRunLoop()
        defer { thread.finish() }
        let delivered = DispatchSemaphore(value: 0)
        let deliveredDuringTheRun = Locked<[Bool]>([])
        // Let the run loop fall asleep first: nothing else will wake it for ten minutes.
        let cancellable = Just(1)
            .delay(for: .milliseconds(50), scheduler: DispatchQueue(label: "later"))
            .receive(on: thread.runLoop)
            .sink { _ in
                deliveredDuringTheRun.withLock { $0.append(!thread.returned.load(ordering: .sequentiallyConsistent)) }
                delivered.signal()
            }
        #expect(delivered.wait(timeout: .now() + 30) == .success)
        #expect(deliveredDuringTheRun.withLock { $0 } == [true])
        cancellable.cancel()
    }

    // MARK: Timer.publish

    @Test func timerPublishTicksFirstAfterOneInterval() {
        let ticks = Locked(0)
        let connection = Timer.publish(every: 3_600, on: .current, in: .default)
            .autoconnect()
            .sink { _ in ticks.withLock { $0 += 1 } }
        // A first tick at once (Linux's Timer(timeInterval:repeats:)) would come in this run.
        _ = RunLoop.current.run(mode: .default, before: Date() + 0.2)
        #expect(ticks.withLock { $0 } == 0)
        connection.cancel()
    }
}

@Suite("Honest waits on virtual time")
struct HonestVirtualWaitsTests {
    @Test func anAbsurdRetryAfterHintWaitsUntilTheEndOfVirtualTime() {
        let scheduler = TestScheduler()
        let subscriptions = Locked(0)
        let recorder = TestSubscriber<Int, HonestWaitsTests.ComeBackMuchLater>()
        Deferred { () -> Fail<Int, HonestWaitsTests.ComeBackMuchLater> in
            subscriptions.withLock { $0 += 1 }
            return Fail(error: HonestWaitsTests.ComeBackMuchLater())
        }
        .retry(1, backoff: .immediate, retryAfterLimit: RetryAfter.unbounded, scheduler: scheduler)
        .subscribe(recorder)
        scheduler.advance(by: .seconds(200 * 365 * 86_400))  // two centuries
        #expect(subscriptions.withLock { $0 } == 1)
        scheduler.run()  // to the end of virtual time, where the wait ends without overflowing
        #expect(subscriptions.withLock { $0 } == 2)
        #expect(recorder.completion == .failure(HonestWaitsTests.ComeBackMuchLater()))
    }
}
