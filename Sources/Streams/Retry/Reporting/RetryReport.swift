/// What `retry(_:when:backoff:scheduler:)` tells its `onGiveUp` when it stops retrying: why,
/// after how many attempts, and the error it delivers (unchanged) downstream.
///
/// Its description and mirror show the error as its ``Swift/Error/redactedDescription``: as it
/// describes itself if it is a ``RedactingError``, otherwise by its type, domain and code alone.
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

extension RetryReport: CustomStringConvertible, CustomReflectable {
    /// The reason, the number of attempts and the error (as its ``Swift/Error/redactedDescription``).
    ///
    /// ```swift
    /// print(RetryReport(reason: .exhausted, attempts: 4, error: URLError(.timedOut)))
    /// // RetryReport(reason: exhausted, attempts: 4, error: URLError(domain: NSURLErrorDomain, code: -1001))
    /// ```
    public var description: String {
        "RetryReport(reason: \(reason), attempts: \(attempts), error: \(error.redactedDescription))"
    }

    /// The reason, the number of attempts and the error, for `dump`: the error is reflected as its
    /// ``Swift/Error/redactedDescription``, never as itself.
    ///
    /// ```swift
    /// dump(RetryReport(reason: .exhausted, attempts: 4, error: URLError(.timedOut)))
    /// // ▿ RetryReport(reason: exhausted, attempts: 4, error: URLError(domain: NSURLErrorDomain, code: -1001))
    /// //   - reason: Streams.RetryGiveUpReason.exhausted
    /// //   - attempts: 4
    /// //   - error: "URLError(domain: NSURLErrorDomain, code: -1001)"
    /// ```
    public var customMirror: Mirror {
        Mirror(
            self, children: ["reason": reason, "attempts": attempts, "error": error.redactedDescription], displayStyle: .struct)
    }
}
