import Streams

extension Scheduler {
    /// Suspends the calling task for `duration` on this scheduler's clock, without blocking the
    /// scheduler; throws `CancellationError` if the task is cancelled first.
    ///
    /// On a queue the task wakes after the real delay; on a test scheduler it wakes when the test
    /// advances the clock past the deadline, which makes retry loops, hedging and timeouts
    /// written with `async`/`await` testable on virtual time. Cancelling the task wakes it at
    /// once and removes the scheduled wake-up. A duration of zero or less wakes it on the
    /// scheduler's next turn (on a test scheduler, the next `advance`). The task sleeps and wakes
    /// on the caller's actor.
    ///
    /// ```swift
    /// for attempt in 1...3 {
    ///     if let response = try? await fetch() { return response }
    ///     try await scheduler.sleep(for: .seconds(attempt))
    /// }
    /// ```
    public func sleep(
        for duration: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride = .zero,
        options: SchedulerOptions? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws {
        try await SchedulerSleep().run(
            on: self, until: now.advanced(by: duration), interval: duration, tolerance: tolerance, options: options,
            isolation: isolation)
    }

    /// Suspends the calling task until `deadline` on this scheduler's clock, without blocking the
    /// scheduler; throws `CancellationError` if the task is cancelled first.
    ///
    /// A deadline that has passed wakes the task on the scheduler's next turn.
    ///
    /// ```swift
    /// try await scheduler.sleep(until: scheduler.now.advanced(by: .seconds(1)))
    /// ```
    public func sleep(
        until deadline: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride = .zero,
        options: SchedulerOptions? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws {
        try await SchedulerSleep().run(
            on: self, until: deadline, interval: now.distance(to: deadline), tolerance: tolerance, options: options,
            isolation: isolation)
    }
}
