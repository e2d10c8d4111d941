/// An error that carries the server's hint for when to try again, such as an HTTP
/// `Retry-After` header.
///
/// `retry(_:when:backoff:scheduler:)` never retries sooner than the hint, and gives up at once
/// when the hint is longer than its `retryAfterLimit`.
///
/// ```swift
/// struct ServerBusy: RetryAfterProviding {
///     let retryAfter: Duration?
/// }
/// ```
public protocol RetryAfterProviding: Error {
    /// How long to wait before trying again; `nil` for no hint.
    var retryAfter: Duration? { get }
}
