import Streams

/// A scheduler that runs all work at once, on the calling thread, and whose clock never moves,
/// over any scheduler's time type: for tests that do not care about time.
///
/// Delayed work runs immediately, whatever its date; repeating work runs once. Use it where the
/// code under test takes a scheduler only to hop threads (`receive(on:)`), not to wait.
/// `DispatchQueue.immediate` is one with `DispatchQueue`'s time and options. (Streams'
/// `ImmediateScheduler`, as in Combine, has its own time type, so it cannot stand in for a queue.)
///
/// ```swift
/// let model = SearchModel(scheduler: DispatchQueue.immediate.eraseToAnyScheduler())
/// model.query = "swift"   // the search runs at once, with no debounce wait
/// ```
public struct ImmediateTestScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    /// The time, which never moves.
    ///
    /// ```swift
    /// let queue = DispatchQueue.immediate
    /// queue.schedule(after: queue.now.advanced(by: .seconds(5))) {}   // queue.now is unchanged
    /// ```
    public let now: SchedulerTimeType

    /// Makes a scheduler whose clock stands at `now`.
    ///
    /// ```swift
    /// let immediate = ImmediateTestSchedulerOf<DispatchQueue>(now: .init(.now()))
    /// ```
    public init(now: SchedulerTimeType) {
        self.now = now
    }

    /// Zero.
    ///
    /// ```swift
    /// #expect(DispatchQueue.immediate.minimumTolerance == .zero)
    /// ```
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// Runs `action` at once.
    ///
    /// ```swift
    /// DispatchQueue.immediate.schedule { print("now") }
    /// ```
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        action()
    }

    /// Runs `action` at once, whatever `date` is.
    ///
    /// ```swift
    /// let queue = DispatchQueue.immediate
    /// queue.schedule(after: queue.now.advanced(by: .seconds(5))) { print("now, not in 5 s") }
    /// ```
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        action()
    }

    /// Runs `action` once, at once; cancelling the result does nothing.
    ///
    /// ```swift
    /// let queue = DispatchQueue.immediate
    /// let once = queue.schedule(after: queue.now, interval: .seconds(1)) { print("only once") }
    /// ```
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        action()
        return AnyCancellable {}
    }
}

/// The immediate scheduler with the time and options of the scheduler `S`.
///
/// ```swift
/// let queue: ImmediateTestSchedulerOf<DispatchQueue> = .immediate
/// ```
public typealias ImmediateTestSchedulerOf<S: Scheduler> = ImmediateTestScheduler<S.SchedulerTimeType, S.SchedulerOptions>

extension ImmediateTestScheduler: Sendable where SchedulerTimeType: Sendable {}
