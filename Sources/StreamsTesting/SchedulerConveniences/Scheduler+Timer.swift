import Streams

extension Scheduler {
    /// A stream of this scheduler's time every `interval`, starting one interval from now, until
    /// the consuming task is cancelled or the stream goes away.
    ///
    /// Ticks the consumer has not taken yet are kept, in order. On a test scheduler the stream
    /// ticks only as the test advances the clock. The interval must be greater than zero.
    ///
    /// ```swift
    /// for await instant in scheduler.timer(interval: .seconds(1)) {
    ///     print("tick at", instant)
    /// }
    /// ```
    public func timer(
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride = .zero,
        options: SchedulerOptions? = nil
    ) -> AsyncStream<SchedulerTimeType> {
        let (stream, continuation) = AsyncStream<SchedulerTimeType>.makeStream()
        let ticker = SchedulerTicker()
        ticker.finish(when: continuation)
        ticker.attach(
            schedule(after: now.advanced(by: interval), interval: interval, tolerance: tolerance, options: options) {
                [scheduler = self] in
                // Handed from the scheduler's thread to the consuming task.
                nonisolated(unsafe) let now = scheduler.now
                continuation.yield(now)
            })
        return stream
    }
}
