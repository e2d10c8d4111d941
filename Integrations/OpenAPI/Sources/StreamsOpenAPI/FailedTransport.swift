import StreamsNetworking

/// An error of `next` (the transport's, usually inside the runtime's `ClientError`), as an
/// attempt of ``OperationCall`` throws it inside the pipeline: with the category and hint that
/// decide the retry and the breaker. The call rethrows `error` unchanged when the retry gives up.
struct FailedTransport: CategorizedError, RetryAfterProviding, RedactingError, CustomStringConvertible {
    /// What `next` threw.
    let error: any Error
    /// The transport's own error: `error`'s `underlyingError` when it is a `ClientError`.
    let cause: any Error
    let category: ErrorCategory
    let retryAfter: Duration?

    /// `transport error: URLError(domain: NSURLErrorDomain, code: -1004)`: the cause as the
    /// core's events show an error, with no secret.
    var description: String { "transport error: \(cause.redactedDescription)" }
}
