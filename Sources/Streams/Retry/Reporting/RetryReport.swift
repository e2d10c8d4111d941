/// What `retry(_:when:backoff:scheduler:)` tells its `onGiveUp` when it stops retrying: why,
/// after how many attempts, and the error it delivers (unchanged) downstream.
///
/// ```swift
/// request.retry(3, backoff: .exponential(), scheduler: DispatchQueue.main, onGiveUp: { report in
///     log("gave up after \(report.attempts) attempts: \(report.reason)")
/// })
/// ```
public struct RetryReport<Failure: Error> {
    /// Why the retry stopped.
    public let reason: RetryGiveUpReason
    /// How many times the upstream was subscribed in all (1 when the first attempt's error was
    /// not retried).
    public let attempts: Int
    /// The last attempt's error, which is delivered downstream as it is.
    public let error: Failure

    /// Describes a retry that gave up.
    ///
    /// ```swift
    /// let report = RetryReport(reason: .exhausted, attempts: 4, error: URLError(.timedOut))
    /// ```
    public init(reason: RetryGiveUpReason, attempts: Int, error: Failure) {
        self.reason = reason
        self.attempts = attempts
        self.error = error
    }
}

extension RetryReport: Sendable where Failure: Sendable {}
