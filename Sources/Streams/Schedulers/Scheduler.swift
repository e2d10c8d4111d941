/// Something that runs work now or at a later time: a `DispatchQueue`, a test's virtual clock,
/// or your own executor.
///
/// Time-based operators (`debounce`, `delay`, `throttle`, `timeout`, `receive(on:)`,
/// `subscribe(on:)`, retry with backoff) take a scheduler, so tests can pass a
/// `TestScheduler` and run them on a virtual clock. A scheduler used by operators must run work
/// serially.
///
/// ```swift
/// DispatchQueue.main.schedule { print("soon") }
/// DispatchQueue.main.schedule(after: DispatchQueue.main.now.advanced(by: .seconds(1))) { print("later") }
/// ```
public protocol Scheduler<SchedulerTimeType> {
    /// How this scheduler measures time.
    associatedtype SchedulerTimeType: Strideable where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible

    /// Options that change how work is run, such as a queue's quality of service.
    associatedtype SchedulerOptions

    /// The scheduler's current time.
    var now: SchedulerTimeType { get }

    /// The smallest tolerance the scheduler honours.
    var minimumTolerance: SchedulerTimeType.Stride { get }

    /// Runs `action` as soon as possible (never inside this call, for a queue).
    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void)

    /// Runs `action` once, at or after `date`.
    func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    )

    /// Runs `action` at `date` and then every `interval`, until the result is cancelled.
    func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable
}

extension Scheduler {
    /// Runs `action` as soon as possible, with no options.
    ///
    /// ```swift
    /// scheduler.schedule { print("next turn") }
    /// ```
    @inlinable
    public func schedule(_ action: @escaping () -> Void) {
        schedule(options: nil, action)
    }

    /// Runs `action` once, at or after `date`, with the minimum tolerance and no options.
    ///
    /// ```swift
    /// scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(300))) { print("later") }
    /// ```
    @inlinable
    public func schedule(after date: SchedulerTimeType, _ action: @escaping () -> Void) {
        schedule(after: date, tolerance: minimumTolerance, options: nil, action)
    }

    /// Runs `action` once, at or after `date`, within `tolerance`.
    ///
    /// ```swift
    /// scheduler.schedule(after: deadline, tolerance: .milliseconds(10)) { print("later") }
    /// ```
    @inlinable
    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, _ action: @escaping () -> Void) {
        schedule(after: date, tolerance: tolerance, options: nil, action)
    }

    /// Runs `action` at `date` and every `interval` after, until the result is cancelled.
    ///
    /// ```swift
    /// let ticking = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { print("tick") }
    /// ```
    @inlinable
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        schedule(after: date, interval: interval, tolerance: minimumTolerance, options: nil, action)
    }

    /// Runs `action` at `date` and every `interval` after, within `tolerance`, until the result
    /// is cancelled.
    ///
    /// ```swift
    /// let ticking = scheduler.schedule(after: start, interval: .seconds(1), tolerance: .milliseconds(5)) { print("tick") }
    /// ```
    @inlinable
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
    }
}
