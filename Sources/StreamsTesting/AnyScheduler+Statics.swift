import Dispatch
import Foundation
import Streams

extension AnyScheduler
where SchedulerTimeType == DispatchQueue.SchedulerTimeType, SchedulerOptions == DispatchQueue.SchedulerOptions {
    /// The main queue, type-erased.
    ///
    /// ```swift
    /// let model = SearchModel(scheduler: .main)
    /// ```
    public static var main: Self { DispatchQueue.main.eraseToAnyScheduler() }

    /// A global queue of quality of service `qos`, type-erased.
    ///
    /// ```swift
    /// let background: AnySchedulerOf<DispatchQueue> = .global(qos: .background)
    /// ```
    public static func global(qos: DispatchQoS.QoSClass = .default) -> Self {
        DispatchQueue.global(qos: qos).eraseToAnyScheduler()
    }

    /// `DispatchQueue.immediate`, type-erased.
    ///
    /// ```swift
    /// let model = SearchModel(scheduler: .immediate)
    /// ```
    public static var immediate: Self { DispatchQueue.immediate.eraseToAnyScheduler() }

    /// `DispatchQueue.unimplemented`, type-erased.
    ///
    /// ```swift
    /// let model = FavoriteModel(mainQueue: .unimplemented)
    /// ```
    public static var unimplemented: Self { DispatchQueue.unimplemented.eraseToAnyScheduler() }

    /// `DispatchQueue.unimplemented(prefix)`, type-erased.
    ///
    /// ```swift
    /// let model = FavoriteModel(mainQueue: .unimplemented("mainQueue"))
    /// ```
    public static func unimplemented(_ prefix: String) -> Self {
        DispatchQueue.unimplemented(prefix).eraseToAnyScheduler()
    }
}

extension AnyScheduler
where SchedulerTimeType == OperationQueue.SchedulerTimeType, SchedulerOptions == OperationQueue.SchedulerOptions {
    /// The main operation queue, type-erased.
    ///
    /// ```swift
    /// let queue: AnySchedulerOf<OperationQueue> = .main
    /// ```
    public static var main: Self { OperationQueue.main.eraseToAnyScheduler() }

    /// `OperationQueue.immediate`, type-erased.
    ///
    /// ```swift
    /// let queue: AnySchedulerOf<OperationQueue> = .immediate
    /// ```
    public static var immediate: Self { OperationQueue.immediate.eraseToAnyScheduler() }

    /// `OperationQueue.unimplemented`, type-erased.
    ///
    /// ```swift
    /// let queue: AnySchedulerOf<OperationQueue> = .unimplemented
    /// ```
    public static var unimplemented: Self { OperationQueue.unimplemented.eraseToAnyScheduler() }

    /// `OperationQueue.unimplemented(prefix)`, type-erased.
    ///
    /// ```swift
    /// let queue: AnySchedulerOf<OperationQueue> = .unimplemented("imports")
    /// ```
    public static func unimplemented(_ prefix: String) -> Self {
        OperationQueue.unimplemented(prefix).eraseToAnyScheduler()
    }
}

extension AnyScheduler where SchedulerTimeType == RunLoop.SchedulerTimeType, SchedulerOptions == RunLoop.SchedulerOptions {
    /// `RunLoop.immediate`, type-erased.
    ///
    /// ```swift
    /// let loop: AnySchedulerOf<RunLoop> = .immediate
    /// ```
    public static var immediate: Self { RunLoop.immediate.eraseToAnyScheduler() }

    /// `RunLoop.unimplemented`, type-erased.
    ///
    /// ```swift
    /// let loop: AnySchedulerOf<RunLoop> = .unimplemented
    /// ```
    public static var unimplemented: Self { RunLoop.unimplemented.eraseToAnyScheduler() }

    /// `RunLoop.unimplemented(prefix)`, type-erased.
    ///
    /// ```swift
    /// let loop: AnySchedulerOf<RunLoop> = .unimplemented("clock")
    /// ```
    public static func unimplemented(_ prefix: String) -> Self {
        RunLoop.unimplemented(prefix).eraseToAnyScheduler()
    }
}

extension AnyScheduler
where SchedulerTimeType == UIScheduler.SchedulerTimeType, SchedulerOptions == UIScheduler.SchedulerOptions {
    /// `UIScheduler.shared`, type-erased.
    ///
    /// ```swift
    /// let ui: AnySchedulerOf<UIScheduler> = .shared
    /// ```
    public static var shared: Self { UIScheduler.shared.eraseToAnyScheduler() }
}
