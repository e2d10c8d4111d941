import Streams

extension VirtualTimeScheduler: SchedulerWakeObserver {
    /// How many turns in a row an `async` advance yields with nothing happening on the
    /// scheduler before it decides the waiting tasks have run as far as they can.
    static var quietYields: Int { 20 }

    /// How many times in all an `async` advance yields between two steps at most, so that a task
    /// that never runs again cannot hang the test.
    static var maximumYields: Int { 100_000 }

    /// Moves the clock forward by `stride`, running the work that comes due, in order, and
    /// letting the tasks it wakes run between steps.
    ///
    /// Before each step, and after the last, it yields to the tasks waiting on the scheduler
    /// (in `sleep(for:)`, or for a tick of `timer(interval:)`): it waits until every task a step
    /// woke from `sleep` has run again, then until nothing has changed on the scheduler for
    /// twenty turns of the executor in a row. Work the tasks schedule meanwhile runs in
    /// the same advance if its time has come. So after `await scheduler.advance(by: .seconds(1))`,
    /// a task sleeping for one second has resumed and run up to its next suspension.
    ///
    /// It runs on the main actor. In a test on the main actor (`@MainActor @Test`), the tasks
    /// the test starts inherit it; sleeps and timers resume them on it, so each of them runs to
    /// its next suspension before the advance goes on, in a fixed order. Tasks on other
    /// executors run in parallel with the advance, which then only gives them a bounded number
    /// of turns (no wall-clock time) to reach their next suspension.
    ///
    /// In an `async` function this overload is the one `advance(by:)` calls; the synchronous one
    /// runs the work without yielding.
    ///
    /// ```swift
    /// let task = Task { try await scheduler.sleep(for: .seconds(1)); return "awake" }
    /// await scheduler.advance(by: .seconds(1))
    /// #expect(try await task.value == "awake")
    /// ```
    @MainActor
    public func advance(by stride: SchedulerTimeType.Stride = .zero) async {
        await advance(to: now.advanced(by: stride))
    }

    /// Moves the clock to `instant` (never backwards), running the work that comes due, in
    /// order, and letting the tasks it wakes run between steps, as `advance(by:)` does.
    ///
    /// ```swift
    /// await scheduler.advance(to: scheduler.now.advanced(by: .seconds(2)))
    /// ```
    @MainActor
    public func advance(to instant: SchedulerTimeType) async {
        await settle()
        while let action = state.withLock({ $0.nextAction(dueBy: instant) }) {
            SchedulerWake.$observer.withValue(self) { action() }
            await settle()
        }
    }

    /// Advances the clock until no work is left, letting the tasks it wakes run between steps.
    /// Repeating work never runs out: cancel it first, or use `advance(by:)`.
    ///
    /// ```swift
    /// let task = Task { await scheduler.timer(interval: .seconds(1)).prefix(3).reduce(0) { n, _ in n + 1 } }
    /// await scheduler.run()
    /// #expect(await task.value == 3)
    /// ```
    @MainActor
    public func run() async {
        await settle()
        var steps = 0
        while let next = state.withLock({ $0.earliestDate }) {
            steps += 1
            precondition(
                steps <= 1_000_000,
                "A virtual-time scheduler's run() is still running after a million steps: is repeating work scheduled?")
            await advance(to: max(next, now))
        }
    }

    /// Yields until every task woken by the last step has run again and nothing has changed on
    /// this scheduler for ``quietYields`` turns in a row.
    @MainActor
    func settle() async {
        var seen = state.withLock { $0.activity }
        var quiet = 0
        for _ in 0..<Self.maximumYields {
            let (activity, pending) = state.withLock { ($0.activity, $0.pendingWakes) }
            if activity != seen {
                seen = activity
                quiet = 0
            }
            if pending == 0, quiet >= Self.quietYields { return }
            await Task.yield()
            quiet += 1
        }
    }

    package func taskWillResume() {
        state.withLock { $0.pendingWakes += 1 }
    }

    package func taskDidResume() {
        state.withLock {
            $0.pendingWakes -= 1
            $0.activity &+= 1
        }
    }
}
