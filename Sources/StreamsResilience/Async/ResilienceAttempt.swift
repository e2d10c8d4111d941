/// Which attempt of a call ``ResiliencePipeline/execute(isSafeToRepeat:request:_:)`` is running: the
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
    /// The time the attempt has, as it starts: its attempt timeout, or what is left of the call's
    /// total timeout if that is sooner; nil when the policy has neither. StreamsNetworking's
    /// `URLRequest.forAttempt(_:header:)` shortens a request's `timeoutInterval` to it.
    public let timeLeft: Duration?

    /// Names an attempt.
    ///
    /// ```swift
    /// let first = ResilienceAttempt(number: 1, hedge: 0)
    /// ```
    public init(number: Int, hedge: Int, timeLeft: Duration? = nil) {
        self.number = number
        self.hedge = hedge
        self.timeLeft = timeLeft
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
