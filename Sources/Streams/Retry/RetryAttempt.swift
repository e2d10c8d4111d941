/// One retry that `retry(_:when:backoff:scheduler:)` is about to make, as told to `onRetry`.
///
/// Its description and mirror show the error as its ``Swift/Error/redactedDescription``: as it
/// describes itself if it is a ``RedactingError``, otherwise by its type, domain and code alone.
///
/// ```swift
/// .retry(3, backoff: .exponential(), scheduler: DispatchQueue.main, onRetry: { attempt in
///     log("retry \(attempt.retry) in \(attempt.delay) after \(attempt.error.redactedDescription)")
/// })
/// ```
public struct RetryAttempt<Failure: Error> {
    /// The retry's number: 1 for the first retry.
    public let retry: Int
    /// The error that caused it.
    public let error: Failure
    /// How long the operator waits before subscribing again.
    public let delay: Duration

    /// Describes a retry.
    ///
    /// ```swift
    /// let attempt = RetryAttempt(retry: 1, error: URLError(.timedOut), delay: .milliseconds(200))
    /// ```
    public init(retry: Int, error: Failure, delay: Duration) {
        self.retry = retry
        self.error = error
        self.delay = delay
    }
}

extension RetryAttempt: Sendable where Failure: Sendable {}

extension RetryAttempt: CustomStringConvertible, CustomReflectable {
    /// The retry's number, its error (as its ``Swift/Error/redactedDescription``) and its delay.
    ///
    /// ```swift
    /// print(RetryAttempt(retry: 1, error: URLError(.timedOut), delay: .seconds(1)))
    /// // RetryAttempt(retry: 1, error: URLError(domain: NSURLErrorDomain, code: -1001), delay: 1.0 seconds)
    /// ```
    public var description: String {
        "RetryAttempt(retry: \(retry), error: \(error.redactedDescription), delay: \(delay))"
    }

    /// The retry's number, its delay and its error, for `dump`: the error is reflected as its
    /// ``Swift/Error/redactedDescription``, never as itself.
    ///
    /// ```swift
    /// dump(RetryAttempt(retry: 1, error: URLError(.timedOut), delay: .seconds(1)))
    /// // ▿ RetryAttempt(retry: 1, error: URLError(domain: NSURLErrorDomain, code: -1001), delay: 1.0 seconds)
    /// //   - retry: 1
    /// //   - error: "URLError(domain: NSURLErrorDomain, code: -1001)"
    /// //   ▿ delay: 1.0 seconds ...
    /// ```
    public var customMirror: Mirror {
        Mirror(self, children: ["retry": retry, "error": error.redactedDescription, "delay": delay], displayStyle: .struct)
    }
}
