import Dispatch

/// A scheduler that runs every action at once, on the calling thread.
///
/// Handy where an API takes a scheduler but the work should just happen now, and in tests of
/// code that does not depend on time. Delays are ignored: work scheduled "after" a date runs
/// immediately too.
///
/// ```swift
/// let cancellable = Just(1).receive(on: ImmediateScheduler.shared).sink { print($0) }
/// ```
public struct ImmediateScheduler: Scheduler, Sendable {
    /// The immediate scheduler's time: a counter that never moves.
    public struct SchedulerTimeType: Strideable, Sendable, Hashable {
        /// The immediate scheduler's interval: a count of nanoseconds it ignores.
        public typealias Stride = DispatchQueue.SchedulerTimeType.Stride

        /// The distance to `other`: always zero.
        public func distance(to other: SchedulerTimeType) -> Stride { .zero }

        /// This same instant: time does not pass on the immediate scheduler.
        public func advanced(by n: Stride) -> SchedulerTimeType { self }
    }

    /// The immediate scheduler has no options.
    public typealias SchedulerOptions = Never

    /// The one immediate scheduler.
    public static let shared = ImmediateScheduler()

    /// Always the same instant.
    public var now: SchedulerTimeType { SchedulerTimeType() }

    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// Runs `action` now.
    public func schedule(options: Never?, _ action: @escaping () -> Void) {
        action()
    }

    /// Runs `action` now, ignoring `date`.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: Never?,
        _ action: @escaping () -> Void
    ) {
        action()
    }

    /// Runs `action` once, now; nothing repeats, and the result cancels nothing.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: Never?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        action()
        return AnyCancellable {}
    }
}


