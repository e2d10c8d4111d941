import Streams

/// A `Clock` on virtual time, for code written with `async`/`await` that reads time from a
/// `Clock` (`ContinuousClock` in production): a view of a ``TestScheduler``.
///
/// Its `now` is the scheduler's `now`, and a task sleeping on it waits for work scheduled on the
/// scheduler, so `await clock.advance(by:)` and the scheduler's own `advance(by:)` move both, and
/// the work publishers schedule on the scheduler and the tasks sleeping on the clock run in one
/// time order. As with the scheduler's `async` `advance(by:)`, once `await clock.advance(by:)`
/// returns, the tasks it woke have run up to their next suspension. Its instants lie on the
/// scheduler's time line (`timelineOffset`), so a circuit breaker or rate limiter shared between
/// a publisher and `async` code reads one time.
///
/// ```swift
/// @MainActor
/// @Test func wakesAfterOneSecond() async throws {
///     let clock = TestClock()
///     let task = Task { try await clock.sleep(for: .seconds(1)); return clock.now }
///     await clock.advance(by: .seconds(1))
///     #expect(try await task.value == .init(offset: .seconds(1)))
/// }
/// ```
public final class TestClock: Clock, Sendable {
    /// Durations are Swift's `Duration`, as `ContinuousClock`'s are.
    ///
    /// ```swift
    /// let delay: TestClock.Duration = .milliseconds(250)
    /// ```
    public typealias Duration = Swift.Duration

    /// The scheduler this clock reads and sleeps on: advancing either advances both.
    ///
    /// ```swift
    /// let clock = TestClock()
    /// let timer = Just(1).delay(for: .seconds(1), scheduler: clock.scheduler)
    /// ```
    public let scheduler: TestScheduler

    /// Makes a clock on `scheduler`'s time, a new ``TestScheduler`` at zero unless given.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let clock = TestClock(scheduler: scheduler)   // publishers on `scheduler`, tasks on `clock`
    /// ```
    public init(scheduler: TestScheduler = TestScheduler()) {
        self.scheduler = scheduler
    }

    /// The scheduler's virtual time.
    ///
    /// ```swift
    /// await clock.advance(by: .seconds(1))
    /// print(clock.now)   // t=1s
    /// ```
    public var now: Instant {
        Instant(scheduler.now)
    }

    /// One nanosecond: the scheduler's time counts whole nanoseconds, so `now` only ever holds
    /// whole nanoseconds and a deadline between two of them wakes its sleeper at the later one.
    ///
    /// ```swift
    /// #expect(clock.minimumResolution == .nanoseconds(1))
    /// ```
    public var minimumResolution: Duration {
        .nanoseconds(1)
    }

    #if compiler(>=6.2)
    /// Suspends the calling task until the clock reaches `deadline`; throws `CancellationError`
    /// if the task is cancelled first. The tolerance is ignored: virtual time is exact.
    ///
    /// A task that is already cancelled throws at once. A deadline at or before `now` returns at
    /// once. Otherwise the wake-up is scheduled on the ``scheduler`` (`scheduledCount` counts
    /// it), and the task wakes when the clock reaches the deadline. Cancelling the task removes
    /// the wake-up from the scheduler and throws `CancellationError` at once. The task sleeps
    /// and wakes on the caller's actor; through a generic `Clock`, on the global executor.
    ///
    /// ```swift
    /// try await clock.sleep(until: clock.now.advanced(by: .seconds(2)))
    /// ```
    nonisolated(nonsending) public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await suspend(until: deadline, isolation: #isolation)
    }
    #else
    /// Suspends the calling task until the clock reaches `deadline`; throws `CancellationError`
    /// if the task is cancelled first. The tolerance is ignored: virtual time is exact.
    ///
    /// As with Swift 6.2 and later, except that the task sleeps and wakes on the global executor
    /// (these compilers have no `nonisolated(nonsending)`).
    ///
    /// ```swift
    /// try await clock.sleep(until: clock.now.advanced(by: .seconds(2)))
    /// ```
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await suspend(until: deadline, isolation: #isolation)
    }
    #endif

    /// Suspends the calling task for `duration` on the clock; throws `CancellationError` if the
    /// task is cancelled first. A duration of zero or less returns at once.
    ///
    /// The task sleeps and wakes on the caller's actor, as with the scheduler's `sleep(for:)`
    /// (`Clock`'s own `sleep(for:)` would leave it for the global executor).
    ///
    /// ```swift
    /// let task = Task { try await clock.sleep(for: .seconds(1)) }
    /// await clock.advance(by: .seconds(1))   // the task has woken
    /// ```
    public func sleep(
        for duration: Duration,
        tolerance: Duration? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws {
        try await suspend(until: now.advanced(by: duration), isolation: isolation)
    }

    /// The one sleep behind both public ones, on `isolation`.
    private func suspend(until deadline: Instant, isolation: isolated (any Actor)?) async throws {
        try Task.checkCancellation()
        let wake = deadline.virtualTime
        guard wake > scheduler.now else { return }
        // The scheduler's sleep: its wake-up is scheduled work that cancelling removes, and the
        // scheduler's `async` advance waits for the task it wakes to run.
        try await scheduler.sleep(until: wake, isolation: isolation)
    }

    /// Moves the clock forward by `duration`, running the scheduler's work that comes due, in
    /// order, and letting the tasks it wakes run between steps: the scheduler's `async`
    /// `advance(by:)`. The duration must not be negative: the clock never moves backwards.
    ///
    /// ```swift
    /// let task = Task { try await clock.sleep(for: .seconds(1)); return "awake" }
    /// await clock.advance(by: .seconds(1))
    /// #expect(try await task.value == "awake")
    /// ```
    @MainActor
    public func advance(by duration: Duration = .zero) async {
        precondition(
            duration >= .zero,
            "A TestClock never moves backwards: advance(by:) takes a duration of zero or more, not \(duration)")
        await advance(to: now.advanced(by: duration))
    }

    /// Moves the clock to `deadline`, running the scheduler's work that comes due, in order, and
    /// letting the tasks it wakes run between steps: the scheduler's `async` `advance(to:)`. As
    /// there, the clock never moves backwards: a deadline that has passed leaves it where it is
    /// and runs only what is due. A deadline between two nanoseconds moves it to the later one.
    ///
    /// ```swift
    /// await clock.advance(to: clock.now.advanced(by: .seconds(2)))
    /// ```
    @MainActor
    public func advance(to deadline: Instant) async {
        await scheduler.advance(to: deadline.virtualTime)
    }

    /// Advances the clock until no work is left on the scheduler, letting the tasks it wakes run
    /// between steps: the scheduler's `async` `run()`. Repeating work never runs out: cancel it
    /// first, or use `advance(by:)`.
    ///
    /// ```swift
    /// let task = Task { try await clock.sleep(for: .seconds(5)) }
    /// await clock.run()   // now t=5s, and the task has woken
    /// ```
    @MainActor
    public func run() async {
        await scheduler.run()
    }
}
