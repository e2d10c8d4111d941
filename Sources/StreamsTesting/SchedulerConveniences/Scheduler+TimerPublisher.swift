import Streams

extension Scheduler {
    /// A connectable publisher of this scheduler's time every `interval`: a
    /// ``Publishers/Timer`` on this scheduler.
    ///
    /// Ticks start on `connect()`, or on the first subscription with `autoconnect()`; the first
    /// comes one interval after connecting. On a test scheduler the timer ticks only as the test
    /// advances the clock.
    ///
    /// ```swift
    /// let cancellable = DispatchQueue.main.timerPublisher(every: .seconds(1))
    ///     .autoconnect()
    ///     .sink { print("tick at", $0) }
    /// ```
    public func timerPublisher(
        every interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride? = nil,
        options: SchedulerOptions? = nil
    ) -> Publishers.Timer<Self> {
        Publishers.Timer(every: interval, tolerance: tolerance, scheduler: self, options: options)
    }
}
