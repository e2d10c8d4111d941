import Dispatch
import Foundation
import Streams

extension DispatchQueue {
    /// An ``UnimplementedScheduler`` with a queue's time and options, named `"DispatchQueue"`.
    ///
    /// ```swift
    /// let model = FavoriteModel(mainQueue: DispatchQueue.unimplemented.eraseToAnyScheduler())
    /// ```
    public static var unimplemented: UnimplementedSchedulerOf<DispatchQueue> {
        unimplemented("DispatchQueue")
    }

    /// An ``UnimplementedScheduler`` with a queue's time and options, named `prefix` in the
    /// failures it reports.
    ///
    /// ```swift
    /// let model = FavoriteModel(mainQueue: DispatchQueue.unimplemented("mainQueue").eraseToAnyScheduler())
    /// ```
    public static func unimplemented(_ prefix: String) -> UnimplementedSchedulerOf<DispatchQueue> {
        UnimplementedScheduler(prefix, now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    }
}

extension OperationQueue {
    /// A new virtual-time scheduler with an operation queue's time and options, its clock at
    /// 1970-01-01.
    ///
    /// ```swift
    /// let queue = OperationQueue.test
    /// queue.advance(by: .seconds(1))
    /// ```
    public static var test: TestSchedulerOf<OperationQueue> {
        TestSchedulerOf<OperationQueue>(now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
    }

    /// A scheduler with an operation queue's time and options that runs all work at once.
    ///
    /// ```swift
    /// let model = SearchModel(queue: OperationQueue.immediate.eraseToAnyScheduler())
    /// ```
    public static var immediate: ImmediateTestSchedulerOf<OperationQueue> {
        ImmediateTestSchedulerOf<OperationQueue>(now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
    }

    /// An ``UnimplementedScheduler`` with an operation queue's time and options, named
    /// `"OperationQueue"`.
    ///
    /// ```swift
    /// let queue = OperationQueue.unimplemented
    /// ```
    public static var unimplemented: UnimplementedSchedulerOf<OperationQueue> {
        unimplemented("OperationQueue")
    }

    /// An ``UnimplementedScheduler`` with an operation queue's time and options, named `prefix`.
    ///
    /// ```swift
    /// let queue = OperationQueue.unimplemented("imports")
    /// ```
    public static func unimplemented(_ prefix: String) -> UnimplementedSchedulerOf<OperationQueue> {
        UnimplementedScheduler(prefix, now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
    }
}

extension RunLoop {
    /// A new virtual-time scheduler with a run loop's time and options, its clock at 1970-01-01.
    ///
    /// ```swift
    /// let loop = RunLoop.test
    /// loop.advance(by: .seconds(1))
    /// ```
    public static var test: TestSchedulerOf<RunLoop> {
        TestSchedulerOf<RunLoop>(now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
    }

    /// A scheduler with a run loop's time and options that runs all work at once.
    ///
    /// ```swift
    /// let model = ClockModel(runLoop: RunLoop.immediate.eraseToAnyScheduler())
    /// ```
    public static var immediate: ImmediateTestSchedulerOf<RunLoop> {
        ImmediateTestSchedulerOf<RunLoop>(now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
    }

    /// An ``UnimplementedScheduler`` with a run loop's time and options, named `"RunLoop"`.
    ///
    /// ```swift
    /// let loop = RunLoop.unimplemented
    /// ```
    public static var unimplemented: UnimplementedSchedulerOf<RunLoop> {
        unimplemented("RunLoop")
    }

    /// An ``UnimplementedScheduler`` with a run loop's time and options, named `prefix`.
    ///
    /// ```swift
    /// let loop = RunLoop.unimplemented("clock")
    /// ```
    public static func unimplemented(_ prefix: String) -> UnimplementedSchedulerOf<RunLoop> {
        UnimplementedScheduler(prefix, now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
    }
}

extension UIScheduler {
    /// A new virtual-time scheduler with the UI scheduler's time and options.
    ///
    /// ```swift
    /// let ui = UIScheduler.test
    /// ui.advance()
    /// ```
    public static var test: TestSchedulerOf<UIScheduler> {
        TestSchedulerOf<UIScheduler>(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    }

    /// A scheduler with the UI scheduler's time and options that runs all work at once.
    ///
    /// ```swift
    /// let model = BannerModel(ui: UIScheduler.immediate.eraseToAnyScheduler())
    /// ```
    public static var immediate: ImmediateTestSchedulerOf<UIScheduler> {
        ImmediateTestSchedulerOf<UIScheduler>(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    }
}

/// The immediate scheduler with the time and options of the scheduler `S`, under the name
/// code written for other scheduler libraries uses.
///
/// ```swift
/// let queue: ImmediateSchedulerOf<DispatchQueue> = .immediate
/// ```
public typealias ImmediateSchedulerOf<S: Scheduler> = ImmediateTestScheduler<S.SchedulerTimeType, S.SchedulerOptions>
