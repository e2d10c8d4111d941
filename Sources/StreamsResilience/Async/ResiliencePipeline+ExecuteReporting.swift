import Streams

extension ResiliencePipeline {
    /// `execute(isSafeToRepeat:request:_:)`, returning the call's value or error beside its
    /// ``ResilienceReport``: each attempt with its duration and error, the waits and why (the
    /// retry's backoff, a rate limiter, the server's pushback), the stage that refused or stopped
    /// the call, why the retry gave up, and the retry budget left. The report is filled from the
    /// call's own events; it is made only for a call that asks for it.
    ///
    /// ```swift
    /// let outcome = await pipeline.executeReporting { _ in try await client.prices() }
    /// if case .failure = outcome.result, outcome.report.refusedBy == .circuitBreaker { showOfflineBanner() }
    /// ```
    public func executeReporting<Value: Sendable>(
        isSafeToRepeat: Bool = true, request: ResilienceRequestIdentity? = nil,
        _ operation: @escaping @Sendable (ResilienceAttempt) async throws -> Value
    ) async -> ResilienceResult<Value> {
        await executeReporting(clock: ContinuousClock(), isSafeToRepeat: isSafeToRepeat, request: request, operation)
    }

    /// `executeReporting(isSafeToRepeat:request:_:)` reading time from `clock` (StreamsTesting's
    /// `TestClock` in a test).
    ///
    /// ```swift
    /// let task = Task { await pipeline.executeReporting(clock: clock) { _ in try await flaky() } }
    /// await clock.advance(by: .seconds(1))
    /// print(await task.value.report)
    /// ```
    public func executeReporting<C: Clock, Value: Sendable>(
        clock: C, isSafeToRepeat: Bool = true, request: ResilienceRequestIdentity? = nil,
        _ operation: @escaping @Sendable (ResilienceAttempt) async throws -> Value
    ) async -> ResilienceResult<Value> where C.Duration == Duration, C.Instant: TimelineInstant {
        let recorder = ResilienceReportRecorder()
        let result: Result<Value, any Error>
        do {
            result = .success(
                try await AsyncExecution(
                    pipeline: self, clock: clock, safety: RepeatSafety(isSafeToRepeat), request: request, recorder: recorder,
                    operation: operation
                ).run())
        } catch {
            result = .failure(error)
        }
        var report = recorder.report(budget: retryBudget)
        if case .failure(let error) = result { report.noteStop(by: ResilienceReport.Stage(stoppedBy: error)) }
        return ResilienceResult(result: result, report: report)
    }
}
