import Foundation

extension RunLoop: Scheduler {
    /// The run loop's time: a `Date`.
    ///
    /// ```swift
    /// let inASecond = RunLoop.main.now.advanced(by: .seconds(1))
    /// ```
    public typealias SchedulerTimeType = DateSchedulerTime

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

    /// Runs `action` on the run loop's next turn.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = UncheckedAction(action)
        perform { work.run() }
    }

    /// Runs `action` on the run loop at `date` (in its default mode), within `tolerance`.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let work = TimerAction(action)
        let timer = Timer(fire: date.date, interval: 0, repeats: false) { _ in work.runOnce() }
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
        let timer = Timer(fire: date.date, interval: interval.timeInterval, repeats: true) { _ in work.run() }
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: .default)
        let invalidate = UncheckedAction { timer.invalidate() }
        return AnyCancellable {
            invalidate.run()
            work.release()
        }
    }
}
