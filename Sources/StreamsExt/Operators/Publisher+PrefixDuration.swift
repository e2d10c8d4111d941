import Streams

extension Publisher {
    /// Passes on values until `duration` has passed on `scheduler` since the subscription, then
    /// finishes. CombineExt's `prefix(duration:tolerance:on:options:)`.
    ///
    /// - The time is measured from the subscription, with one action scheduled on `scheduler`
    ///   (with `tolerance` and `options`); when it runs, this publisher is cancelled and the stream
    ///   finishes. Values and completions are passed on as they come, on the thread they come on.
    /// - This publisher finishing or failing before then ends the stream as it would, and the
    ///   scheduled action is cancelled.
    /// - Demand goes straight to this publisher.
    ///
    /// ```
    /// upstream: -1-2----3-4-|
    /// time:     ------|           (duration)
    /// result:   -1-2--|
    /// ```
    ///
    /// ```swift
    /// let firstSecond = readings.prefix(duration: .seconds(1), on: DispatchQueue.main)
    /// ```
    public func prefix<S: Scheduler>(
        duration: S.SchedulerTimeType.Stride,
        tolerance: S.SchedulerTimeType.Stride? = nil,
        on scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> AnyPublisher<Output, Failure> {
        let deadline = Just(()).delay(for: duration, tolerance: tolerance, scheduler: scheduler, options: options)
        return prefix(untilOutputFrom: deadline).eraseToAnyPublisher()
    }
}
