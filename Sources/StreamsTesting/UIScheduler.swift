import Dispatch
import Streams

/// A scheduler that runs work on the main queue as soon as possible: at once when already on
/// it, without the hop `DispatchQueue.main.schedule` always makes.
///
/// Use it where a hop to the main queue is needed but a needless one would show, such as a
/// value that drives an animation. Work scheduled for later, or repeating, goes through
/// `DispatchQueue.main`. Its time and options are the main queue's (it has no options of its
/// own), so `UIScheduler.test` and `UIScheduler.immediate` stand in for it in tests.
///
/// ```swift
/// let cancellable = model.$title
///     .receive(on: UIScheduler.shared)   // no hop when the value is sent on the main queue
///     .sink { label.text = $0 }
/// ```
public struct UIScheduler: Scheduler, Sendable {
    /// The main queue's time.
    public typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
    /// The UI scheduler takes no options.
    public typealias SchedulerOptions = Never

    /// The one UI scheduler.
    ///
    /// ```swift
    /// UIScheduler.shared.schedule { print("on the main queue") }
    /// ```
    public static let shared = UIScheduler()

    private init() {
        DispatchQueue.main.setSpecific(key: mainQueueKey, value: ())
    }

    /// The main queue's time.
    ///
    /// ```swift
    /// let inASecond = UIScheduler.shared.now.advanced(by: .seconds(1))
    /// ```
    public var now: SchedulerTimeType { DispatchQueue.main.now }

    /// The main queue's minimum tolerance.
    ///
    /// ```swift
    /// let tolerance = UIScheduler.shared.minimumTolerance
    /// ```
    public var minimumTolerance: SchedulerTimeType.Stride { DispatchQueue.main.minimumTolerance }

    /// Runs `action` now when called on the main queue, otherwise on the main queue's next turn.
    ///
    /// ```swift
    /// UIScheduler.shared.schedule { print("on the main queue") }
    /// ```
    public func schedule(options: SchedulerOptions? = nil, _ action: @escaping () -> Void) {
        if DispatchQueue.getSpecific(key: mainQueueKey) != nil {
            action()
        } else {
            DispatchQueue.main.schedule(action)
        }
    }

    /// Runs `action` on the main queue at or after `date`.
    ///
    /// ```swift
    /// UIScheduler.shared.schedule(after: UIScheduler.shared.now.advanced(by: .seconds(1))) { print("later") }
    /// ```
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions? = nil,
        _ action: @escaping () -> Void
    ) {
        DispatchQueue.main.schedule(after: date, tolerance: tolerance, options: nil, action)
    }

    /// Runs `action` on the main queue at `date` and every `interval` after, until the result
    /// is cancelled.
    ///
    /// ```swift
    /// let ticking = UIScheduler.shared.schedule(after: UIScheduler.shared.now, interval: .seconds(1)) { print("tick") }
    /// ```
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions? = nil,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        DispatchQueue.main.schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
    }
}

/// Marks the main queue, so that the UI scheduler can tell when it runs on it.
private let mainQueueKey = DispatchSpecificKey<Void>()
