import Streams

extension Publisher {
    /// `resilient(_:scheduler:isSafeToRepeat:request:onReport:)` with a fallback, the outermost
    /// stage (as in Polly v8's recommended order): when the call fails, whatever stage stopped it
    /// (the retry's last error, an open circuit, a limiter, the total timeout), `fallback` is
    /// asked for a value to deliver instead, and the stream finishes; it returns nil to let the
    /// failure through. Each time it is asked, the events tell
    /// ``ResilienceEvent/fallbackUsed(error:)`` and the call's report keeps the error.
    ///
    /// ```swift
    /// let prices = Deferred { api.prices() }
    ///     .resilient(pipeline, scheduler: DispatchQueue.main) { _ in cache.lastPrices }
    /// ```
    @inlinable
    public func resilient<S: Scheduler>(
        _ pipeline: ResiliencePipeline, scheduler: S, isSafeToRepeat: Bool = true, request: ResilienceRequestIdentity? = nil,
        onReport: (@Sendable (ResilienceReport) -> Void)? = nil,
        fallback: @escaping (ResilienceError<Failure>) -> Output?
    ) -> Publishers.Resilient<Self, S> where S.SchedulerTimeType: TimelineInstant {
        Publishers.Resilient(
            upstream: self, pipeline: pipeline, scheduler: scheduler, isSafeToRepeat: isSafeToRepeat, request: request,
            onReport: onReport, fallback: fallback)
    }
}
