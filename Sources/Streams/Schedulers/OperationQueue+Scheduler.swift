import Dispatch
import Foundation

extension OperationQueue: Scheduler {
    /// The queue's time: a `Date`.
    ///
    /// ```swift
    /// let inASecond = OperationQueue.main.now.advanced(by: .seconds(1))
    /// ```
    public typealias SchedulerTimeType = DateSchedulerTime

    /// Options for work on an operation queue: there are none.
    ///
    /// ```swift
    /// queue.schedule(options: OperationQueue.SchedulerOptions()) { print("queued") }
    /// ```
    public struct SchedulerOptions: Sendable {
        /// No options.
        public init() {}
    }

    /// The current date.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

    /// No tolerance is needed.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Adds `action` to the queue as an operation.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = UncheckedAction(action)
        addOperation { work.run() }
    }

    /// Adds `action` to the queue at `date`. Work due earlier is added first; on a serial queue
    /// (`maxConcurrentOperationCount == 1`) it also runs first. A date more than about 31 years
    /// ahead never comes.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let work = UncheckedAction(action)
        let queue = UncheckedOperationQueue(self)
        Self.timers.asyncAfter(wallDeadline: Self.wallTime(of: date)) {
            queue.queue.addOperation { work.run() }
        }
    }

    /// Adds `action` to the queue at `date` and then every `interval`, until the returned value
    /// is cancelled.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let work = UncheckedAction(action)
        let queue = UncheckedOperationQueue(self)
        let timer = DispatchSource.makeTimerSource(queue: Self.timers)
        timer.setEventHandler { queue.queue.addOperation { work.run() } }
        timer.schedule(
            wallDeadline: Self.wallTime(of: date),
            repeating: Self.dispatchInterval(interval.timeInterval),
            leeway: Self.dispatchInterval(tolerance.timeInterval))
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }

    /// The serial queue whose timers add delayed work to operation queues: being serial, it adds
    /// work due earlier first, so a serial operation queue runs delayed work in order.
    static let timers = DispatchQueue(label: "Streams.OperationQueue.timers")

    /// `date` as a wall-clock deadline for Dispatch: a date more than 10^9 seconds (about 31
    /// years) ahead, or not a number, is never (`.distantFuture`).
    static func wallTime(of date: SchedulerTimeType) -> DispatchWallTime {
        let seconds = date.date.timeIntervalSinceNow
        guard seconds <= 1e9 else { return .distantFuture }
        return .now() + dispatchInterval(seconds)
    }

    /// `seconds` as a Dispatch interval, clamped to 0 through 10^9 seconds (about 31 years), so
    /// that no interval, however long, overflows the conversion to nanoseconds.
    static func dispatchInterval(_ seconds: TimeInterval) -> DispatchTimeInterval {
        .nanoseconds(Int(min(max(seconds, 0), 1e9) * 1_000_000_000))
    }
}
