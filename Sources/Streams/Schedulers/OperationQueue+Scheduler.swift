import Dispatch
import Foundation

extension OperationQueue: Scheduler {
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

    /// Adds `action` to the queue as one `BlockOperation`, through `addOperation(_:)` with the
    /// operation (not the block form), as Combine does.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = UncheckedAction(action)
        addOperation(BlockOperation { work.run() })
    }

    /// Adds `action` to the queue at once, as an operation that is not ready until `date`, as
    /// Combine does: the queue counts and lists it, `waitUntilAllOperationsAreFinished()` waits
    /// for it, and `cancelAllOperations()` cancels it. On a serial queue
    /// (`maxConcurrentOperationCount == 1`) work runs in the order its dates come; work that
    /// came due while the queue was busy runs in the order it was scheduled. A date more than
    /// about 31 years ahead never comes.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let operation = DelayedOperation(date: date.date, action: UncheckedAction(action), chain: nil)
        addOperation(operation)
        operation.becomeReadyAtDate()
    }

    /// Runs `action` on the queue at `date` and then every `interval`, until the returned value
    /// is cancelled. As in Combine, the first tick's operation is added at once, not ready until
    /// its date, and each tick adds the next one's when it starts; ticks never overlap, even on
    /// a concurrent queue. Cancelling cancels the operation that waits.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let operations = RepeatingOperations(queue: self, interval: interval.timeInterval)
        operations.start(at: date.date, UncheckedAction(action))
        return AnyCancellable { operations.cancel() }
    }

    /// The serial queue whose timers make delayed operations ready: being serial, it readies
    /// work due earlier first.
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
