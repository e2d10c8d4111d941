/// One retry that `retry(_:when:backoff:scheduler:)` is about to make, as told to `onRetry`.
///
/// ```swift
/// .retry(3, backoff: .exponential(), scheduler: DispatchQueue.main, onRetry: { attempt in
///     log("retry \(attempt.retry) in \(attempt.delay) after \(attempt.error)")
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
