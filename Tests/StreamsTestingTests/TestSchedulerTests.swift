import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("TestScheduler")
struct TestSchedulerTests {
    final class Recorder: @unchecked Sendable {
        var entries: [String] = []
        func callAsFunction(_ entry: String) { entries.append(entry) }
    }

    @Test func clockStartsAtZeroAndMovesOnlyWhenAdvanced() {
        let scheduler = TestScheduler()
        #expect(scheduler.now == .init(nanoseconds: 0))
        scheduler.advance(by: .milliseconds(250))
        #expect(scheduler.now == .init(nanoseconds: 250_000_000))
        scheduler.advance(to: .init(nanoseconds: 100))
        #expect(scheduler.now == .init(nanoseconds: 250_000_000))
    }

    @Test func workRunsWhenItsTimeComesInTimeOrder() {
        let scheduler = TestScheduler()
        let log = Recorder()
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) { log("two at \(scheduler.now)") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log("one at \(scheduler.now)") }
        scheduler.advance(by: .milliseconds(999))
        #expect(log.entries.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(log.entries == ["one at t=1s"])
        scheduler.advance(by: .seconds(5))
        #expect(log.entries == ["one at t=1s", "two at t=2s"])
        #expect(scheduler.now == .init(nanoseconds: 6_000_000_000))
    }

    @Test func sameInstantWorkRunsFirstInFirstOut() {
        let scheduler = TestScheduler()
        let log = Recorder()
        for index in 0..<5 {
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log("\(index)") }
        }
        scheduler.schedule { log("now") }
        scheduler.advance(by: .seconds(1))
        #expect(log.entries == ["now", "0", "1", "2", "3", "4"])
    }

    /// Hundreds of jobs scheduled in shuffled order, many at the same instant, some repeating,
    /// some cancelled: they run in the order of their time, then of their scheduling (a
    /// repeating job keeping its first place), as a plain sort of what is due says.
    @Test func manyJobsRunInTimeThenSchedulingOrder() {
        var generator = SeededRandomNumberGenerator(seed: 7)
        let scheduler = TestScheduler()
        let log = Recorder()
        // (due second, scheduling order, label): one entry per run, a repeating job once per tick
        var expected: [(Int, Int, String)] = []
        var cancellables: [any Cancellable] = []
        for order in 0..<400 {
            let second = Int(generator.next() % 20) + 1
            let label = "job \(order)"
            if order.isMultiple(of: 50) {
                cancellables.append(
                    scheduler.schedule(
                        after: .init(nanoseconds: Int64(second) * 1_000_000_000), interval: .seconds(3)
                    ) { log(label) })
                expected += stride(from: second, through: 30, by: 3).map { ($0, order, label) }
            } else if order.isMultiple(of: 7) {
                let job = scheduler.schedule(
                    after: .init(nanoseconds: Int64(second) * 1_000_000_000), interval: .seconds(100)
                ) { log(label) }
                job.cancel()
            } else {
                scheduler.schedule(after: .init(nanoseconds: Int64(second) * 1_000_000_000)) { log(label) }
                expected.append((second, order, label))
            }
        }
        scheduler.advance(by: .seconds(30))
        let sorted = expected.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
        #expect(log.entries == sorted)
        #expect(scheduler.scheduledCount == cancellables.count)
        cancellables.forEach { $0.cancel() }
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func workScheduledWhileAdvancingRunsInTheSameAdvanceWhenDue() {
        let scheduler = TestScheduler()
        let log = Recorder()
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) {
            log("first")
            scheduler.schedule { log("immediately after") }
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log("a second later") }
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10))) { log("too late") }
        }
        scheduler.advance(by: .seconds(2))
        #expect(log.entries == ["first", "immediately after", "a second later"])
    }

    @Test func repeatingWorkRunsEveryIntervalUntilCancelled() {
        let scheduler = TestScheduler()
        let log = Recorder()
        let repeating = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)) {
            log("tick \(scheduler.now)")
        }
        scheduler.advance(by: .seconds(3))
        #expect(log.entries == ["tick t=1s", "tick t=2s", "tick t=3s"])
        repeating.cancel()
        scheduler.advance(by: .seconds(3))
        #expect(log.entries.count == 3)
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func cancellingRemovesTheWork() {
        let scheduler = TestScheduler()
        let log = Recorder()
        let work = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(5)) { log("ran") }
        #expect(scheduler.scheduledCount == 1)
        work.cancel()
        #expect(scheduler.scheduledCount == 0)
        scheduler.advance(by: .seconds(10))
        #expect(log.entries.isEmpty)
    }

    /// What a scheduled action captures, to see when the scheduler lets it go.
    final class Captured {}

    @Test func cancellingReleasesTheActionAtOnceAndLeavesTheOtherWork() {
        let scheduler = TestScheduler()
        let log = Recorder()
        weak var released: Captured?
        let cancelled: any Cancellable
        do {
            let captured = Captured()
            released = captured
            cancelled = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)) {
                withExtendedLifetime(captured) { log("cancelled ran") }
            }
        }
        let kept = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)) { log("kept") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) { log("once") }
        #expect(released != nil)
        cancelled.cancel()
        #expect(released == nil, "the action is released by the cancel, not on the next advance")
        cancelled.cancel()
        #expect(scheduler.scheduledCount == 2)
        scheduler.advance(by: .seconds(2))
        // At 2 s the repeating work runs first: it was scheduled before the one-off.
        #expect(log.entries == ["kept", "kept", "once"])
        kept.cancel()
    }

    @Test func repeatingWorkDoesNotKeepItsSchedulerAlive() {
        weak var gone: TestScheduler?
        let work: any Cancellable
        do {
            let scheduler = TestScheduler()
            gone = scheduler
            work = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {}
        }
        #expect(gone == nil)
        work.cancel()  // harmless once the scheduler has gone
    }

    @Test func runAdvancesUntilNoWorkIsLeft() {
        let scheduler = TestScheduler()
        let log = Recorder()
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(3))) {
            log("three")
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(4))) { log("seven") }
        }
        scheduler.run()
        #expect(log.entries == ["three", "seven"])
        #expect(scheduler.now == .init(nanoseconds: 7_000_000_000))
    }

    @Test func pastDatesRunOnTheNextAdvance() {
        let scheduler = TestScheduler()
        let log = Recorder()
        scheduler.advance(by: .seconds(5))
        scheduler.schedule(after: .init(nanoseconds: 0)) { log("late") }
        scheduler.advance()
        #expect(log.entries == ["late"])
        #expect(scheduler.now == .init(nanoseconds: 5_000_000_000))
    }

    @Test func strideLiteralsMeanSeconds() {
        let literal: TestScheduler.SchedulerTimeType.Stride = 0.8
        #expect(literal == .milliseconds(800))
        #expect(TestScheduler.SchedulerTimeType.Stride.seconds(1) == .microseconds(1_000_000))
        #expect(TestScheduler.SchedulerTimeType.Stride.seconds(Double.infinity).magnitude == .max)
    }

    @Test func schedulingFromManyThreadsLosesNothing() {
        let scheduler = TestScheduler()
        let log = Recorder()
        let lock = DispatchQueue(label: "log")
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for i in 0..<100 {
                scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(i))) {
                    lock.sync { log("\(thread)-\(i)") }
                }
            }
        }
        scheduler.run()
        #expect(log.entries.count == 800)
    }

    @Test func repeatingWithZeroIntervalTraps() async {
        await #expect(processExitsWith: .failure) {
            let scheduler = TestScheduler()
            _ = scheduler.schedule(after: scheduler.now, interval: .zero) {}
        }
    }
}
