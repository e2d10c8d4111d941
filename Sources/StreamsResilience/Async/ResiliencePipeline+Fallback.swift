import Streams

extension ResiliencePipeline {
    /// `execute(clock:isSafeToRepeat:request:_:)` with a fallback, the outermost stage (as in
    /// Polly v8's recommended order): when the call fails, whatever stage stopped it, `fallback`
    /// is given the error and returns the value instead, or throws (the error it was given, to
    /// decline). A call whose caller was cancelled throws `CancellationError` without asking it.
    /// Each time it is asked, the events tell ``ResilienceEvent/fallbackUsed(error:)``.
    ///
    /// ```swift
    /// let prices = try await pipeline.execute(clock: ContinuousClock()) { _ in
    ///     try await client.prices()
    /// } fallback: { _ in
    ///     cache.lastPrices
    /// }
    /// ```
    public func execute<C: Clock, Value: Sendable>(
        clock: C, isSafeToRepeat: Bool = true, request: ResilienceRequestIdentity? = nil,
        _ operation: @escaping @Sendable (ResilienceAttempt) async throws -> Value,
        fallback: @Sendable (any Error) async throws -> Value
    ) async throws -> Value where C.Duration == Duration, C.Instant: TimelineInstant {
        let execution = AsyncExecution(
            pipeline: self, clock: clock, safety: RepeatSafety(isSafeToRepeat), request: request, operation: operation)
        do {
            return try await execution.run()
        } catch {
            if Task.isCancelled { throw CancellationError() }
            execution.events.emit(.fallbackUsed(error: error))
            return try await fallback(error)
        }
    }
}
