import Streams

extension ResiliencePolicy {
    /// Whether the circuit breaker counts `error` as a failed call: its category is one of
    /// `circuitBreakerFailures`, where a timeout counts as retryable even when the call is not
    /// safe to repeat (its error is then not retryable, so that the retry leaves it alone, but a
    /// slow backend is no healthier for it), or ``circuitBreakerWhen`` handles it. Both faces
    /// ask this.
    func breakerCounts(_ error: some Error) -> Bool {
        let category: ErrorCategory = ResilienceErrorKind.of(error) == .timeout ? .retryable : error.resolveCategory()
        return circuitBreakerFailures.contains(category) || circuitBreakerWhen?(.failure(Self.seenThrough(error))) == true
    }
}
