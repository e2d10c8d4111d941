import Streams

/// What happens to a name on its way through the sign-up form, for the demo's timeline and the
/// tests: the form's own decisions and each request and retry the client makes.
public enum CheckEvent: Sendable, Equatable {
    /// The form answered `name` itself, without a request, because the server would reject it
    /// for its length.
    case notSent(name: String, reason: String)
    /// `removeDuplicates` swallowed `name`: it is the name checked last.
    case swallowed(name: String)
    /// A request for `name` went out.
    case request(name: String)
    /// The check of `name` retries: the server's `Retry-After` hint (nil if it gave none), the
    /// backoff's delay before jitter (`jittered` when the real delay is drawn below it), and
    /// the wait the retry makes, the larger of the two.
    case retry(name: String, number: Int, serverHint: Duration?, backoff: Duration, jittered: Bool, wait: Duration)
    /// The check of `name` was cancelled before it finished (by `switchToLatest`, when a newer
    /// name arrived); `inFlight` when a request was on the wire, not a retry wait.
    case cancelled(name: String, inFlight: Bool)
}
