/// What "Try Again" subscribes to when the publisher before `recover(through:tryAgain:presenter:)`
/// retries by itself (see ``AutomaticallyRetrying``).
///
/// ```swift
/// request.retry(3, backoff: .exponential(), scheduler: queue)
///     .recover(through: chain, tryAgain: .withAutomaticRetries) { alert.ask($0) }   // up to 4 requests per tap
/// ```
public enum UserRetry: Sendable, Hashable {
    /// One new attempt of what is before the automatic retry (the default): the user has
    /// already waited out the automatic retries, and decides when to try again, so the user is
    /// the backoff.
    case singleAttempt
    /// The upstream again, automatic retries included: each tap may send `1 + maxRetries`
    /// requests. For a connection the user expects to come back in a moment (a train entering a
    /// tunnel), where a short automatic series after the tap saves taps.
    case withAutomaticRetries
}
