import Dispatch
import Streams

extension DispatchQueue {
    /// A new virtual-time scheduler with a queue's time and options, for code typed against
    /// `DispatchQueue` or `AnySchedulerOf<DispatchQueue>`.
    ///
    /// Its clock starts at an arbitrary fixed instant and moves only when the test moves it;
    /// each access makes a new scheduler, so keep the one you pass to the code under test.
    ///
    /// ```swift
    /// let queue = DispatchQueue.test
    /// let model = SearchModel(scheduler: queue.eraseToAnyScheduler())
    /// model.query = "swift"
    /// queue.advance(by: .milliseconds(300))   // the debounced search runs now
    /// ```
    public static var test: TestSchedulerOf<DispatchQueue> {
        TestSchedulerOf<DispatchQueue>(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    }

    /// A scheduler with a queue's time and options that runs all work at once and whose clock
    /// never moves, for tests that do not care about time.
    ///
    /// ```swift
    /// let model = SearchModel(scheduler: DispatchQueue.immediate.eraseToAnyScheduler())
    /// ```
    public static var immediate: ImmediateTestSchedulerOf<DispatchQueue> {
        ImmediateTestSchedulerOf<DispatchQueue>(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    }
}
