import Streams

/// A scheduler that forwards to another scheduler with the same time type and options, hiding
/// which one it is.
///
/// Type code that schedules work against `AnySchedulerOf<DispatchQueue>` instead of a concrete
/// queue: the app passes `DispatchQueue.main.eraseToAnyScheduler()`, a test passes
/// `DispatchQueue.test.eraseToAnyScheduler()` and moves virtual time, or
/// `DispatchQueue.immediate.eraseToAnyScheduler()` when timing does not matter.
///
/// ```swift
/// final class SearchModel {
///     let scheduler: AnySchedulerOf<DispatchQueue>
///     init(scheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.main.eraseToAnyScheduler()) {
///         self.scheduler = scheduler
///     }
/// }
/// ```
///
/// Combine has no such type; it comes from the ecosystem around it. It lives in
/// `StreamsTesting`, which an app target may link: it links Swift Testing only weakly, and
/// XCTest not at all.
// Unchecked: the closures capture only the wrapped scheduler, which `init` requires to be Sendable.
public struct AnyScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler, @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    // Sendable because the closures capture only the wrapped scheduler, which `init` requires
    // to be Sendable (the checker cannot see through the generic metatypes they mention).
    private let currentTime: () -> SchedulerTimeType
    private let tolerance: () -> SchedulerTimeType.Stride
    private let scheduleNow: (SchedulerOptions?, @escaping () -> Void) -> Void
    private let scheduleAfter: (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> Void
    private let scheduleRepeating:
        (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) ->
            any Cancellable

    /// Wraps `scheduler`.
    ///
    /// ```swift
    /// let main = AnyScheduler(DispatchQueue.main)   // an AnySchedulerOf<DispatchQueue>
    /// ```
    public init<S: Scheduler & Sendable>(_ scheduler: S)
    where S.SchedulerTimeType == SchedulerTimeType, S.SchedulerOptions == SchedulerOptions {
        currentTime = { scheduler.now }
        tolerance = { scheduler.minimumTolerance }
        scheduleNow = { scheduler.schedule(options: $0, $1) }
        scheduleAfter = { scheduler.schedule(after: $0, tolerance: $1, options: $2, $3) }
        scheduleRepeating = { scheduler.schedule(after: $0, interval: $1, tolerance: $2, options: $3, $4) }
    }

    /// A scheduler made of closures: one for each requirement of `Scheduler`.
    ///
    /// Use it to wrap a scheduler's work in something, such as a log line or an animation. The
    /// closures may be called from any thread.
    ///
    /// ```swift
    /// let queue = DispatchQueue.main
    /// let logging = AnySchedulerOf<DispatchQueue>(
    ///     minimumTolerance: { queue.minimumTolerance },
    ///     now: { queue.now },
    ///     scheduleImmediately: { options, action in print("now"); queue.schedule(options: options, action) },
    ///     delayed: { date, tolerance, options, action in queue.schedule(after: date, tolerance: tolerance, options: options, action) },
    ///     interval: { date, interval, tolerance, options, action in
    ///         queue.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
    ///     })
    /// ```
    public init(
        minimumTolerance: @escaping @Sendable () -> SchedulerTimeType.Stride,
        now: @escaping @Sendable () -> SchedulerTimeType,
        scheduleImmediately: @escaping @Sendable (SchedulerOptions?, @escaping () -> Void) -> Void,
        delayed:
            @escaping @Sendable (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> Void,
        interval:
            @escaping @Sendable (
                SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void
            ) -> any Cancellable
    ) {
        currentTime = now
        tolerance = minimumTolerance
        scheduleNow = scheduleImmediately
        scheduleAfter = delayed
        scheduleRepeating = interval
    }

    /// The wrapped scheduler's time.
    ///
    /// ```swift
    /// let inASecond = scheduler.now.advanced(by: .seconds(1))
    /// ```
    public var now: SchedulerTimeType { currentTime() }

    /// The wrapped scheduler's minimum tolerance.
    ///
    /// ```swift
    /// let tolerance = scheduler.minimumTolerance
    /// ```
    public var minimumTolerance: SchedulerTimeType.Stride { tolerance() }

    /// Schedules `action` on the wrapped scheduler as soon as possible.
    ///
    /// ```swift
    /// scheduler.schedule { print("soon") }
    /// ```
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        scheduleNow(options, action)
    }

    /// Schedules `action` on the wrapped scheduler after `date`.
    ///
    /// ```swift
    /// scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { print("later") }
    /// ```
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        scheduleAfter(date, tolerance, options, action)
    }

    /// Schedules `action` on the wrapped scheduler after `date` and every `interval` after that.
    ///
    /// ```swift
    /// let ticking = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { print("tick") }
    /// ```
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        scheduleRepeating(date, interval, tolerance, options, action)
    }
}

/// The type-erased scheduler with the time and options of the scheduler `S`.
///
/// ```swift
/// let scheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.main.eraseToAnyScheduler()
/// ```
public typealias AnySchedulerOf<S: Scheduler> = AnyScheduler<S.SchedulerTimeType, S.SchedulerOptions>

extension Scheduler where Self: Sendable {
    /// Wraps this scheduler in an ``AnyScheduler``.
    ///
    /// ```swift
    /// let scheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.main.eraseToAnyScheduler()
    /// ```
    public func eraseToAnyScheduler() -> AnyScheduler<SchedulerTimeType, SchedulerOptions> {
        AnyScheduler(self)
    }
}
