import HTTPTypes
import StreamsNetworking

/// A response whose status is not a 2xx, as an attempt of ``OperationCall`` throws it inside the
/// pipeline, so that the retry and the breaker judge it as they judge StreamsNetworking's
/// `NetworkError` of that status: its category (the request's safety and the body's taken into
/// account) and the server's hint. The body stays with the call, under `ticket`, so that events
/// and reports that keep this error do not keep the body.
struct FailedResponse: CategorizedError, RetryAfterProviding, RedactingError, CustomStringConvertible {
    /// The response's head, returned unchanged if the retry gives up on it.
    let response: HTTPResponse
    /// What StreamsNetworking makes of the status and its hint.
    let failure: NetworkError
    let category: ErrorCategory
    /// Where the call keeps the response's body.
    let ticket: Int

    var retryAfter: Duration? { failure.retryAfter }

    /// `server error 503 (GET), retry after 2.0 seconds`: the status error's redacted description.
    var description: String { failure.description }
}
