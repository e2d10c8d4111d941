import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams

extension NetworkError {
    /// Checks an HTTP response: a 2xx status gives the body; any other status becomes the
    /// matching error (see the table on ``NetworkError``), with:
    /// - what the body says (``ProblemDetails``): `errorBody` is asked first if given, then the
    ///   shapes ``ProblemDetails/parse(_:)`` knows, then a short, printable `text/plain` body is
    ///   the reason (``ProblemDetails/parse(_:contentType:)``); a body longer than
    ///   ``ProblemDetails/parsingLimit`` is not parsed;
    /// - the hint for when to try again (``HTTPErrorResponse/retryAfterHint(status:now:header:)``):
    ///   `Retry-After` when it has a valid one, otherwise on 429 and 503 the rate-limit headers
    ///   (``RateLimitHint``). Dates and instants are measured against the response's own `Date`
    ///   header when it has one, so that a wrong client clock does not matter.
    ///
    /// ```swift
    /// let body = try NetworkError.validate(data: data, response: response, request: SentRequest(request)).get()
    /// ```
    public static func validate(
        data: Data, response: HTTPURLResponse, request: SentRequest = .unspecified, errorBody: ErrorBodyParser? = nil
    ) -> Result<Data, NetworkError> {
        let status = response.statusCode
        guard !(200..<300).contains(status) else { return .success(data) }
        let fits = data.count <= ProblemDetails.parsingLimit
        let contentType = response.value(forHTTPHeaderField: "Content-Type")
        let problem = fits ? (errorBody?(data, response) ?? ProblemDetails.parse(data, contentType: contentType)) : nil
        let hint = HTTPErrorResponse.retryAfterHint(status: status) { response.value(forHTTPHeaderField: $0) }
        let failure = HTTPErrorResponse(status: status, problem: problem, retryAfter: hint, request: request, response: response)
        return .failure(NetworkError(status: failure))
    }
}
