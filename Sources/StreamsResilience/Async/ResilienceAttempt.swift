/// Which attempt of a call ``ResiliencePipeline/execute(isSafeToRepeat:_:)`` is running: the
/// retry's attempt number, and which hedge of that attempt it is.
///
/// ```swift
/// let body = try await pipeline.execute { attempt in
///     logger.debug("attempt \(attempt.number), hedge \(attempt.hedge)")
///     return try await client.get("/prices")
/// }
/// ```
public struct ResilienceAttempt: Sendable, Hashable, CustomStringConvertible {
    /// The retry's attempt: 1 for the first, 2 for the first retry, and so on.
    public let number: Int
    /// 0 for the attempt the retry started; 1, 2, … for the hedges started beside it.
    public let hedge: Int

    /// Names an attempt.
    ///
    /// ```swift
    /// let first = ResilienceAttempt(number: 1, hedge: 0)
    /// ```
    public init(number: Int, hedge: Int) {
        self.number = number
        self.hedge = hedge
    }

    /// `attempt 2` or `attempt 2, hedge 1`.
    ///
    /// ```swift
    /// print(ResilienceAttempt(number: 2, hedge: 1))   // attempt 2, hedge 1
    /// ```
    public var description: String {
        hedge == 0 ? "attempt \(number)" : "attempt \(number), hedge \(hedge)"
    }
}
