/// The outcome of one call of ``ResiliencePipeline/executeReporting(isSafeToRepeat:request:_:)``:
/// what it returned or threw, beside the report of what the stages did for it.
///
/// ```swift
/// let outcome = await pipeline.executeReporting { _ in try await client.prices() }
/// logger.debug("\(outcome.report.attempts.count) attempts, waited \(outcome.report.totalWait)")
/// let prices = try outcome.get()
/// ```
public struct ResilienceResult<Value: Sendable>: Sendable {
    /// The value the call returned, or the error it threw (as `execute` would).
    public let result: Result<Value, any Error>
    /// What the stages did for the call.
    public let report: ResilienceReport

    /// Pairs an outcome with its report.
    ///
    /// ```swift
    /// let outcome = ResilienceResult(result: .success(1), report: ResilienceReport())
    /// ```
    public init(result: Result<Value, any Error>, report: ResilienceReport) {
        self.result = result
        self.report = report
    }

    /// The value, or the error thrown.
    ///
    /// ```swift
    /// let prices = try outcome.get()
    /// ```
    public func get() throws -> Value {
        try result.get()
    }
}
