import Foundation

extension RunLoop: Scheduler {
    /// Options for work on a run loop: there are none.
    ///
    /// ```swift
    /// RunLoop.main.schedule(options: RunLoop.SchedulerOptions()) { print("next turn") }
    /// ```
    public struct SchedulerOptions: Sendable {
        /// No options.
        public init() {}
    }

    /// The current date.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

    /// No tolerance is needed.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Runs `action` on the run loop's next turn, waking the run loop if it sleeps.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = UncheckedAction(action)
        perform { work.run() }
        wakeUp()
    }

    /// Wakes the run loop if it sleeps. `perform` only queues its block: on Linux a sleeping run
    /// loop would run it only once something else woke it (a timer, a source, the end of
    /// `run(until:)`). A timer that is already due wakes it on every platform, and the run loop
    /// then runs the queued blocks.
    private func wakeUp() {
        add(Timer(fire: Date(), interval: 0, repeats: false) { _ in }, forMode: .common)
    }

    /// `date` as a timer's fire date: a date past `Date.distantFuture`, or not a number, is
    /// `distantFuture`: never.
    static func fireDate(of date: SchedulerTimeType) -> Date {
        date.date < .distantFuture ? date.date : .distantFuture
    }

    /// Runs `action` on the run loop at `date` (in its default mode), within `tolerance`.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let work = TimerAction(action)
        let timer = Timer(fire: Self.fireDate(of: date), interval: 0, repeats: false) { _ in work.runOnce() }
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: .default)
    }

    /// Runs `action` on the run loop at `date` and then every `interval`, until the returned
    /// value is cancelled.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let work = TimerAction(action)
        let timer = Timer(fire: Self.fireDate(of: date), interval: interval.timeInterval, repeats: true) { _ in work.run() }
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: .default)
        let invalidate = UncheckedAction { timer.invalidate() }
        return AnyCancellable {
            invalidate.run()
            work.release()
        }
    }
}
