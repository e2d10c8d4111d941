import Streams

/// A scheduler that fails the test whenever it is used, for code paths that must not schedule
/// anything.
///
/// Pass it where the code under test takes a scheduler but the path the test exercises should
/// never touch it: the test then states that the path needs no scheduler, and fails if it ever
/// starts to use one. Each use (asking the time or the tolerance, scheduling work) reports a
/// failure through ``TestIssueReporter/current``, naming the scheduler by its prefix; the work
/// still runs at once, so the test goes on and reports what follows. `DispatchQueue.unimplemented`,
/// `OperationQueue.unimplemented` and `RunLoop.unimplemented` have those schedulers' time types.
///
/// ```swift
/// let model = EpisodeModel(api: .mock, mainQueue: DispatchQueue.unimplemented("mainQueue").eraseToAnyScheduler())
/// model.favoriteButtonTapped()   // no scheduler involved: the test passes
/// ```
public struct UnimplementedScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    /// The name that starts every failure message, such as `"DispatchQueue"`.
    ///
    /// ```swift
    /// #expect(DispatchQueue.unimplemented.prefix == "DispatchQueue")
    /// ```
    public let prefix: String

    private let time: SchedulerTimeType

    /// Makes a scheduler named `prefix` whose clock stands at `now`.
    ///
    /// ```swift
    /// let scheduler = UnimplementedSchedulerOf<DispatchQueue>("mainQueue", now: .init(.init(uptimeNanoseconds: 1)))
    /// ```
    public init(_ prefix: String = "", now: SchedulerTimeType) {
        self.prefix = prefix
        self.time = now
    }

    /// Reports a failure, then returns the time the scheduler was made with.
    ///
    /// ```swift
    /// _ = DispatchQueue.unimplemented.now   // fails the test
    /// ```
    public var now: SchedulerTimeType {
        report("was asked the current time")
        return time
    }

    /// Reports a failure, then returns zero.
    ///
    /// ```swift
    /// _ = DispatchQueue.unimplemented.minimumTolerance   // fails the test
    /// ```
    public var minimumTolerance: SchedulerTimeType.Stride {
        report("was asked its minimum tolerance")
        return .zero
    }

    /// Reports a failure, then runs `action` at once.
    ///
    /// ```swift
    /// DispatchQueue.unimplemented.schedule { print("runs, but fails the test") }
    /// ```
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        report("scheduled an action to run immediately")
        action()
    }

    /// Reports a failure, then runs `action` at once.
    ///
    /// ```swift
    /// let queue = DispatchQueue.unimplemented
    /// queue.schedule(after: .init(.init(uptimeNanoseconds: 5))) { print("runs, but fails the test") }
    /// ```
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        report("scheduled an action to run later")
        action()
    }

    /// Reports a failure, then runs `action` once, at once; cancelling the result does nothing.
    ///
    /// ```swift
    /// let queue = DispatchQueue.unimplemented
    /// let once = queue.schedule(after: .init(.init(uptimeNanoseconds: 5)), interval: .seconds(1)) {}
    /// ```
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        report("scheduled an action to run on a timer")
        action()
        return AnyCancellable {}
    }

    private func report(_ what: String) {
        TestIssueReporter.current.reportIssue("\(prefix.isEmpty ? "" : "\(prefix) - ")An unimplemented scheduler \(what).")
    }
}

/// The unimplemented scheduler with the time and options of the scheduler `S`.
///
/// ```swift
/// let queue: UnimplementedSchedulerOf<DispatchQueue> = .unimplemented("mainQueue")
/// ```
public typealias UnimplementedSchedulerOf<S: Scheduler> = UnimplementedScheduler<S.SchedulerTimeType, S.SchedulerOptions>

extension UnimplementedScheduler: Sendable where SchedulerTimeType: Sendable {}
