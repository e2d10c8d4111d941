import Dispatch
import Streams
import StreamsTesting
import Testing

/// `sleep(for:)`, `sleep(until:)` and `timer(interval:)` on a test scheduler, driven by the
/// `async` `advance` and `run`. The tests run on the main actor, as do the tasks they start, so
/// every step happens in a fixed order.
@Suite("Async sleep and timers on virtual time")
@MainActor
struct SchedulerSleepTests {
    @Test func aSleepingTaskWakesWhenTheClockReachesItsDeadlineAndRunsToItsNextSuspension() async throws {
        let scheduler = TestScheduler()
        let log = Locked<[String]>([])
        let task = Task {
            try await scheduler.sleep(for: .seconds(1))
            log.withLock { $0.append("awake at \(scheduler.now)") }
            try await scheduler.sleep(for: .seconds(5))
            log.withLock { $0.append("never") }
        }
        await scheduler.advance(by: .milliseconds(999))
        #expect(log.withLock { $0 } == [])
        await scheduler.advance(by: .milliseconds(1))
        // No `await task.value`: the advance itself let the task run up to its second sleep.
        #expect(log.withLock { $0 } == ["awake at t=1s"])
        #expect(scheduler.scheduledCount == 1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func sleepUntilWakesAtTheDeadline() async throws {
        let scheduler = TestScheduler()
        let task = Task {
            try await scheduler.sleep(until: scheduler.now.advanced(by: .seconds(3)))
            return scheduler.now
        }
        await scheduler.advance(by: .seconds(10))
        #expect(try await task.value == .init(nanoseconds: 3_000_000_000))
    }

    /// A scheduler whose clock moves a millisecond each time it is read, as a real clock moves
    /// between two reads.
    struct DriftingScheduler: Scheduler, Sendable {
        let base: TestScheduler

        var now: VirtualTime {
            defer { base.advance(by: .milliseconds(1)) }
            return base.now
        }

        var minimumTolerance: VirtualTime.Stride { .zero }

        func schedule(options: Never?, _ action: @escaping () -> Void) {
            base.schedule(options: options, action)
        }

        func schedule(after date: VirtualTime, tolerance: VirtualTime.Stride, options: Never?, _ action: @escaping () -> Void) {
            base.schedule(after: date, tolerance: tolerance, options: options, action)
        }

        func schedule(
            after date: VirtualTime,
            interval: VirtualTime.Stride,
            tolerance: VirtualTime.Stride,
            options: Never?,
            _ action: @escaping () -> Void
        ) -> any Cancellable {
            base.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
        }
    }

    @Test func sleepUntilWakesAtTheDeadlineItselfWhileTheClockMovesOnDuringTheCall() async throws {
        let scheduler = TestScheduler()
        let drifting = DriftingScheduler(base: scheduler)
        let deadline = VirtualTime(nanoseconds: 5_000_000_000)
        let task = Task {
            try await drifting.sleep(until: deadline)
            return scheduler.now
        }
        await scheduler.advance(to: deadline)
        task.cancel()  // so that a task still asleep fails the test instead of hanging it
        #expect(try await task.value == deadline)
    }

    @Test func aDeadlineInThePastWakesOnTheNextAdvance() async throws {
        let scheduler = TestScheduler()
        await scheduler.advance(by: .seconds(5))
        let task = Task {
            try await scheduler.sleep(until: .init(nanoseconds: 1))
            return scheduler.now
        }
        await scheduler.advance()
        #expect(try await task.value == .init(nanoseconds: 5_000_000_000))
    }

    @Test func cancellingASleepingTaskThrowsAtOnceAndRemovesItsWakeUp() async {
        let scheduler = TestScheduler()
        let task = Task { try await scheduler.sleep(for: .seconds(5)) }
        await scheduler.advance(by: .seconds(1))
        #expect(scheduler.scheduledCount == 1)
        task.cancel()
        // The cancellation handler removed the scheduled wake-up before `cancel()` returned.
        #expect(scheduler.scheduledCount == 0)
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(scheduler.now == .init(nanoseconds: 1_000_000_000))
    }

    @Test func aTaskCancelledBeforeItSleepsThrowsWithoutSchedulingAnything() async {
        let scheduler = TestScheduler()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await scheduler.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func tasksThatScheduleMoreWorkWhileTheClockAdvancesRunInTheSameAdvance() async throws {
        let scheduler = TestScheduler()
        let log = Locked<[String]>([])
        let retrying = Task {
            for attempt in 1...3 {
                log.withLock { $0.append("attempt \(attempt) at \(scheduler.now)") }
                try await scheduler.sleep(for: .seconds(attempt))
            }
        }
        let polling = Task {
            for _ in 1...2 {
                try await scheduler.sleep(for: .milliseconds(1_500))
                log.withLock { $0.append("poll at \(scheduler.now)") }
                // Combine work scheduled by the woken task, due at once.
                scheduler.schedule { log.withLock { $0.append("scheduled by poll at \(scheduler.now)") } }
            }
        }
        await scheduler.advance(by: .seconds(10))
        #expect(
            log.withLock { $0 } == [
                "attempt 1 at t=0s",
                "attempt 2 at t=1s",
                "poll at t=1.5s",
                "scheduled by poll at t=1.5s",
                "attempt 3 at t=3s",
                "poll at t=3s",
                "scheduled by poll at t=3s",
            ])
        #expect(scheduler.now == .init(nanoseconds: 10_000_000_000))
        try await retrying.value
        try await polling.value
    }

    @Test func theSynchronousAdvanceDoesNotWaitForWokenTasks() async throws {
        let scheduler = TestScheduler()
        let log = Locked<[String]>([])
        let task = Task {
            try await scheduler.sleep(for: .seconds(1))
            log.withLock { $0.append("awake at \(scheduler.now)") }
        }
        await scheduler.advance()  // the task is asleep
        // In an async function `advance` means the async one; a synchronous closure calls the other.
        let advanceSynchronously = { scheduler.advance(by: .seconds(1)) }
        advanceSynchronously()
        // The task was resumed, but has not run: this test holds the main actor.
        #expect(log.withLock { $0 } == [])
        try await task.value
        #expect(log.withLock { $0 } == ["awake at t=1s"])
    }

    @Test func aTimerStreamTicksAsTheClockAdvancesAndStopsWithItsConsumer() async {
        let scheduler = TestScheduler()
        let task = Task {
            var ticks: [VirtualTime] = []
            for await instant in scheduler.timer(interval: .seconds(1)).prefix(3) {
                ticks.append(instant)
            }
            return ticks
        }
        await scheduler.advance(by: .milliseconds(2_500))
        #expect(scheduler.scheduledCount == 1)
        await scheduler.advance(by: .seconds(10))
        #expect(await task.value == [1, 2, 3].map { VirtualTime(nanoseconds: $0 * 1_000_000_000) })
        // The consumer stopped after three ticks: the stream went away and its work with it.
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func aTimerStreamEndsWhenItsConsumerIsCancelled() async {
        let scheduler = TestScheduler()
        let task = Task {
            var count = 0
            for await _ in scheduler.timer(interval: .seconds(1)) { count += 1 }
            return count
        }
        await scheduler.advance(by: .seconds(2))
        task.cancel()
        #expect(await task.value == 2)
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func runLetsTheTasksItWakesScheduleMoreUntilNothingIsLeft() async {
        let scheduler = TestScheduler()
        // A `for await` loop: it takes each tick on the main actor. `reduce(into:)` calls the
        // iterator's `next()` without isolation, so each tick hopped to the global executor, and
        // on a busy machine the tenth could still be on its way back while `run()` went on
        // ticking (t=13s once in CI).
        let task = Task {
            var count = 0
            for await _ in scheduler.timer(interval: .seconds(1)).prefix(10) { count += 1 }
            return count
        }
        await scheduler.run()
        #expect(await task.value == 10)
        #expect(scheduler.now == .init(nanoseconds: 10_000_000_000))
    }

    @Test func measureGivesTheVirtualTimeTheWorkTook() {
        let scheduler = TestScheduler()
        let elapsed = scheduler.measure { scheduler.advance(by: .milliseconds(1_500)) }
        #expect(elapsed == .milliseconds(1_500))
    }

    @Test func sleepWorksOnATypeErasedTestScheduler() async throws {
        let queue = DispatchQueue.test
        let erased = queue.eraseToAnyScheduler()
        let start = queue.now
        let task = Task {
            try await erased.sleep(for: .seconds(2))
            return erased.now
        }
        await queue.advance(by: .seconds(3))
        #expect(try await task.value == start.advanced(by: .seconds(2)))
    }

    @Test func onAnImmediateSchedulerSleepReturnsAtOnceAndATimerTicksOnce() async throws {
        let queue = DispatchQueue.immediate
        try await queue.sleep(for: .seconds(5))
        try await ImmediateScheduler.shared.sleep(for: .seconds(5))
        var ticks = 0
        for await _ in queue.timer(interval: .seconds(1)).prefix(1) { ticks += 1 }
        #expect(ticks == 1)
    }
}
