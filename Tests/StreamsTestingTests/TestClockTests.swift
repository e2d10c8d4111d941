import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// `TestClock`, the `Clock` that is a view of a `TestScheduler`, driven by its `async` `advance`
/// and `run`. The tests run on the main actor, as do the tasks they start, so every step happens
/// in a fixed order; the tests of code generic over its clock, which sleeps on the global
/// executor, wait for it by yielding (never by wall-clock time).
@Suite("TestClock: async code on virtual time", .timeLimit(.minutes(1)))
@MainActor
struct TestClockTests {
    @Test func sleepersWakeInDeadlineOrderEachAtItsDeadline() async throws {
        let clock = TestClock()
        let log = Locked<[String]>([])
        var tasks: [Task<Void, any Error>] = []
        for (name, seconds) in [("c", 3), ("a", 1), ("b", 2)] {
            tasks.append(
                Task {
                    try await clock.sleep(for: .seconds(seconds))
                    log.withLock { $0.append("\(name) at \(clock.now)") }
                })
        }
        tasks.append(
            Task {
                try await clock.sleep(until: .init(offset: .milliseconds(1_500)))
                log.withLock { $0.append("d at \(clock.now)") }
            })
        await clock.advance(by: .milliseconds(999))
        #expect(log.withLock { $0 } == [])
        #expect(clock.scheduler.scheduledCount == 4)
        await clock.advance(by: .milliseconds(1))
        // No `await task.value`: the advance itself let the woken task run.
        #expect(log.withLock { $0 } == ["a at t=1s"])
        await clock.advance(by: .seconds(2))
        #expect(log.withLock { $0 } == ["a at t=1s", "d at t=1.5s", "b at t=2s", "c at t=3s"])
        // Cancelled first, so that a task that never woke fails the test instead of hanging it.
        for task in tasks {
            task.cancel()
            try await task.value
        }
        #expect(clock.scheduler.scheduledCount == 0)
    }

    @Test func aSleepUntilNowOrThePastReturnsAtOnceWithoutSchedulingAnything() async {
        let clock = TestClock()
        await clock.advance(by: .seconds(5))
        let returned = Locked<[String]>([])
        let task = Task {
            try await clock.sleep(until: clock.now)
            returned.withLock { $0.append("now") }
            try await clock.sleep(until: .init(offset: .seconds(1)))
            returned.withLock { $0.append("past") }
            try await clock.sleep(for: .zero)
            returned.withLock { $0.append("zero") }
            try await clock.sleep(for: .seconds(-1))
            returned.withLock { $0.append("negative") }
        }
        // The clock does not move: a sleep that waited for it would never return.
        #expect(await eventually { returned.withLock { $0.count } == 4 })
        #expect(returned.withLock { $0 } == ["now", "past", "zero", "negative"])
        #expect(clock.scheduler.scheduledCount == 0)
        #expect(clock.now == .init(offset: .seconds(5)))
        task.cancel()
        _ = await task.result
    }

    @Test func aDeadlineBetweenTwoNanosecondsWakesItsSleeperAtTheLaterOne() async throws {
        let clock = TestClock()
        #expect(clock.minimumResolution == .nanoseconds(1))
        let oneAttosecondIn = TestClock.Instant(offset: Duration(secondsComponent: 0, attosecondsComponent: 1))
        let task = Task {
            try await clock.sleep(until: oneAttosecondIn)
            return clock.now
        }
        await clock.advance()
        #expect(clock.scheduler.scheduledCount == 1, "asleep: the deadline is after now")
        await clock.advance(to: oneAttosecondIn)
        #expect(clock.now == .init(offset: .nanoseconds(1)))
        task.cancel()  // so that a task that never woke fails the test instead of hanging it
        #expect(try await task.value == .init(offset: .nanoseconds(1)))
    }

    @Test func aTaskCancelledBeforeItSleepsThrowsEvenWhenTheDeadlineHasPassed() async {
        let clock = TestClock()
        let future = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await future.value }
        let past = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(until: clock.now)
        }
        await #expect(throws: CancellationError.self) { try await past.value }
        #expect(clock.scheduler.scheduledCount == 0)
    }

    @Test func cancellingASleepingTaskThrowsAtOnceAndRemovesItsWakeUp() async {
        let clock = TestClock()
        let outcome = Locked<String?>(nil)
        let task = Task {
            do {
                try await clock.sleep(for: .seconds(5))
                outcome.withLock { $0 = "woke" }
            } catch {
                outcome.withLock { $0 = "\(type(of: error))" }
            }
        }
        await clock.advance(by: .seconds(1))
        #expect(clock.scheduler.scheduledCount == 1)
        task.cancel()
        // The cancellation handler removed the scheduled wake-up before `cancel()` returned.
        #expect(clock.scheduler.scheduledCount == 0)
        // And the task ends without the clock moving.
        #expect(await eventually { outcome.withLock { $0 } != nil })
        #expect(outcome.withLock { $0 } == "CancellationError")
        #expect(clock.now == .init(offset: .seconds(1)))
    }

    @Test func publisherTimersAndAsyncSleepersRunInOneTimeOrder() async throws {
        let scheduler = TestScheduler()
        let clock = TestClock(scheduler: scheduler)
        let log = Locked<[String]>([])
        let timer = scheduler.timerPublisher(every: .seconds(1))
            .autoconnect()
            .sink { instant in log.withLock { $0.append("tick at \(instant)") } }
        let delayed = Just("delayed")
            .delay(for: .milliseconds(2_500), scheduler: scheduler)
            .sink { value in log.withLock { $0.append("\(value) at \(scheduler.now)") } }
        let sleeper = Task {
            for _ in 1...2 {
                try await clock.sleep(for: .milliseconds(1_500))
                log.withLock { $0.append("sleeper at \(clock.now)") }
            }
        }
        // The scheduler's advance moves the clock...
        await scheduler.advance(by: .seconds(2))
        #expect(log.withLock { $0 } == ["tick at t=1s", "sleeper at t=1.5s", "tick at t=2s"])
        // ...and the clock's moves the scheduler. At t=3s the tick comes first: it was scheduled
        // first (repeating work keeps its first place).
        await clock.advance(by: .seconds(1))
        #expect(
            log.withLock { $0 } == [
                "tick at t=1s", "sleeper at t=1.5s", "tick at t=2s", "delayed at t=2.5s", "tick at t=3s", "sleeper at t=3s",
            ])
        sleeper.cancel()  // so that a task that never woke fails the test instead of hanging it
        try await sleeper.value
        timer.cancel()
        delayed.cancel()
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func theClocksInstantsLieOnTheSchedulersTimeLine() async {
        let scheduler = TestScheduler()
        await scheduler.advance(by: .seconds(7))  // a scheduler that has run before the clock is made
        let clock = TestClock(scheduler: scheduler)
        #expect(clock.now == .init(offset: .seconds(7)))
        #expect(clock.now.timelineOffset == scheduler.now.timelineOffset)
        await clock.advance(by: .milliseconds(250))
        #expect(clock.now.timelineOffset == scheduler.now.timelineOffset)
        await scheduler.advance(by: .nanoseconds(3))
        #expect(clock.now.timelineOffset == scheduler.now.timelineOffset)
        let advanceSynchronously = { scheduler.advance(by: .seconds(1)) }
        advanceSynchronously()
        #expect(clock.now.timelineOffset == scheduler.now.timelineOffset)
        #expect(clock.now.timelineOffset == .seconds(8) + .milliseconds(250) + .nanoseconds(3))
        #expect(clock.now.description == scheduler.now.description)
        #expect(clock.now.description == "t=8.250000003s")
    }

    @Test func advancingToAnInstantThatHasPassedLeavesTheClockWhereItIs() async {
        let clock = TestClock()
        await clock.advance(by: .seconds(2))
        await clock.advance(to: .init(offset: .seconds(1)))
        #expect(clock.now == .init(offset: .seconds(2)))
        await clock.advance(to: .init(offset: .seconds(3)))
        #expect(clock.now == .init(offset: .seconds(3)))
    }

    @Test func aNegativeAdvanceStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            await TestClock().advance(by: .seconds(-1))
        }
    }

    @Test func runAdvancesUntilTheLastSleeperHasWoken() async throws {
        let clock = TestClock()
        let task = Task {
            try await clock.sleep(for: .seconds(5))
            try await clock.sleep(for: .seconds(2))
            return clock.now
        }
        await clock.run()
        #expect(clock.now == .init(offset: .seconds(7)))
        task.cancel()  // so that a task that never woke fails the test instead of hanging it
        #expect(try await task.value == .init(offset: .seconds(7)))
    }

    /// Code generic over its clock, as the `async` resilience strategies are: its sleeps go through
    /// `Clock`'s requirement, on the global executor.
    nonisolated static func sleepOneSecondThenUntilThreeSeconds<C: Clock>(on clock: C) async throws -> C.Instant
    where C.Duration == Duration {
        let start = clock.now
        try await clock.sleep(for: .seconds(1))
        try await clock.sleep(until: start.advanced(by: .seconds(3)), tolerance: nil)
        return start
    }

    @Test func codeGenericOverItsClockRunsOnIt() async throws {
        let clock = TestClock()
        let finished = Locked(false)
        let task = Task {
            let start = try await Self.sleepOneSecondThenUntilThreeSeconds(on: clock)
            finished.withLock { $0 = true }
            return start
        }
        #expect(await eventually { clock.scheduler.scheduledCount == 1 }, "asleep for a second")
        await clock.advance(by: .seconds(1))
        #expect(await eventually { clock.scheduler.scheduledCount == 1 }, "asleep until three seconds in")
        await clock.advance(by: .milliseconds(1_999))
        #expect(!finished.withLock { $0 })
        await clock.advance(by: .milliseconds(1))
        #expect(try await task.value == .init(offset: .zero))
        #expect(clock.scheduler.scheduledCount == 0)
    }

    @Test func twoHundredSleepersAllWakeAtTheirDeadlinesAndLeaveNothingBehind() async throws {
        let clock = TestClock()
        let deadlines = (0..<200).map { TestClock.Instant(offset: .milliseconds(100 * ($0 % 10 + 1))) }
        let tasks = deadlines.map { deadline in
            Task {
                try await clock.sleep(until: deadline)
                return clock.now
            }
        }
        await clock.advance()
        #expect(clock.scheduler.scheduledCount == 200)
        await clock.run()
        for (task, deadline) in zip(tasks, deadlines) {
            task.cancel()  // so that a task that never woke fails the test instead of hanging it
            #expect(try await task.value == deadline)
        }
        #expect(clock.scheduler.scheduledCount == 0)
        #expect(clock.now == .init(offset: .seconds(1)))
    }

    @Test func twoHundredSleepersOnTheGlobalExecutorWokenWhileHalfAreCancelledEachEndOnce() async {
        let clock = TestClock()
        let tasks = (0..<200).map { _ in
            Task.detached { try await clock.sleep(for: .seconds(1)) }
        }
        #expect(await eventually { clock.scheduler.scheduledCount == 200 })
        // Every other task is cancelled on another thread while the advance wakes them all: each
        // task must be resumed exactly once (a second resume stops the program, a lost one hangs
        // the test), by whichever comes first.
        let canceller = Task.detached {
            for (index, task) in tasks.enumerated() where index.isMultiple(of: 2) { task.cancel() }
        }
        await clock.advance(by: .seconds(1))
        await canceller.value
        var woken = 0
        var cancelled = 0
        for (index, task) in tasks.enumerated() {
            switch await task.result {
            case .success: woken += 1
            case .failure(let error):
                #expect(error is CancellationError)
                #expect(index.isMultiple(of: 2), "only the even tasks were cancelled")
                cancelled += 1
            }
        }
        #expect(woken + cancelled == 200)
        #expect(woken >= 100)
        #expect(clock.scheduler.scheduledCount == 0)
    }

    @Test func anInstantWritesItselfAsVirtualTimeDoes() {
        #expect(TestClock.Instant(offset: .zero).description == "t=0s")
        #expect(TestClock.Instant(offset: .milliseconds(250)).description == "t=250ms")
        #expect(TestClock.Instant(offset: .milliseconds(1_500)).description == "t=1.5s")
        let start = TestClock.Instant(offset: .seconds(1))
        #expect(start.advanced(by: .milliseconds(500)).description == "t=1.5s")
        #expect(start.duration(to: .init(offset: .milliseconds(250))) == .milliseconds(-750))
        #expect(start < start.advanced(by: .nanoseconds(1)))
    }

    /// Yields until `condition` holds, at most a million times (no wall-clock time), and says
    /// whether it does: for tasks on the global executor, which run in parallel with the test.
    private func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<1_000_000 {
            if condition() { return true }
            await Task.yield()
        }
        return condition()
    }
}
