import Streams

extension ResiliencePolicy {
    /// Settings of this policy that defeat one another, each with a sentence that names the rule
    /// and what to change; empty when there are none. `ResiliencePipeline` prints them to
    /// standard error when it is made in a debug build; call it in a test to keep a policy sound.
    ///
    /// - `attemptTimeoutNotShorterThanTotalTimeout`: the total timeout ends the first attempt
    ///   before the attempt's own timeout can, so no retry follows a timeout.
    /// - `retryWaitsExceedTotalTimeout`: the retry's waits alone (the backoff's delays before
    ///   jitter) add up to more than the total timeout, so the last retries never start.
    /// - `hedgingDelayNotShorterThanAttemptTimeout`: each attempt times out before a hedge
    ///   starts, so hedging never runs.
    /// - `minimumThroughputBeyondWindow`: a count window holds fewer calls than the breaker's
    ///   `minimumThroughput`, so the circuit never opens.
    ///
    /// ```swift
    /// @Test func thePaymentsPolicyIsSound() {
    ///     #expect(ResiliencePolicy.payments.lint().isEmpty)
    /// }
    /// ```
    public func lint() -> [LintProblem] {
        var problems: [LintProblem] = []
        if let attempt = attemptTimeout, let total = totalTimeout, attempt >= total {
            problems.append(
                LintProblem(
                    rule: .attemptTimeoutNotShorterThanTotalTimeout,
                    message: "attemptTimeout (\(attempt)) is not shorter than totalTimeout (\(total)): the total timeout "
                        + "ends the first attempt before its own timeout can, so no retry follows a timeout; make "
                        + "attemptTimeout shorter than totalTimeout"))
        }
        if let retry, let total = totalTimeout, let waits = Self.waits(of: retry, beyond: total) {
            problems.append(
                LintProblem(
                    rule: .retryWaitsExceedTotalTimeout,
                    message: "the retry's waits alone (\(waits.retries) retries, \(waits.total) before jitter) exceed "
                        + "totalTimeout (\(total)): the last retries never start; lower maxRetries or the backoff, or "
                        + "raise totalTimeout"))
        }
        if let hedging = hedging as? Hedging, hedging.maxAttempts > 1, let attempt = attemptTimeout,
            hedging.delay >= attempt
        {
            problems.append(
                LintProblem(
                    rule: .hedgingDelayNotShorterThanAttemptTimeout,
                    message: "Hedging's delay (\(hedging.delay)) is not shorter than attemptTimeout (\(attempt)): each "
                        + "attempt times out before a hedge starts, so hedging never runs; make the delay shorter than "
                        + "attemptTimeout"))
        }
        if let breaker = circuitBreaker, case .count(let size) = breaker.window, breaker.minimumThroughput > size {
            problems.append(
                LintProblem(
                    rule: .minimumThroughputBeyondWindow,
                    message: "the circuit breaker's minimumThroughput (\(breaker.minimumThroughput)) is more than its "
                        + "window holds (the last \(size) calls): the circuit never opens; lower minimumThroughput to "
                        + "\(size) or less, or widen the window"))
        }
        return problems
    }

    /// The number of retries and their waits before jitter (of the first 10 000 retries, for a
    /// policy that allows more), when the waits add up to more than `limit`; nil when they fit.
    private static func waits(of retry: Retry, beyond limit: Duration) -> (retries: Int, total: Duration)? {
        let counted = min(retry.maxRetries, 10_000)
        guard counted >= 1 else { return nil }
        let total = (1...counted).reduce(Duration.zero) { $0 + retry.backoff.baseDelay(forRetry: $1) }
        return total > limit ? (retry.maxRetries, total) : nil
    }
}
