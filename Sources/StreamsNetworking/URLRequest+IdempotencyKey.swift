import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// The header that tells a server a repeated request is the same request (IETF httpapi
    /// draft "The Idempotency-Key HTTP Header Field").
    public static let idempotencyKeyHeader = "Idempotency-Key"

    /// This request with an `Idempotency-Key` header, so that a retry may send it again even
    /// if its method is not idempotent (a POST, a PATCH) and the server may have received it.
    ///
    /// The key is written once, into the request; every attempt of a retrying pipeline sends
    /// the same request, so the server sees the same key each time and can answer a repeat
    /// with the result of the first. The value is sent as a structured-field string (quoted),
    /// as the draft asks; `key` must be printable ASCII without quotes or backslashes, which a
    /// UUID, the default, is.
    ///
    /// ```swift
    /// var order = URLRequest(url: ordersURL)
    /// order.httpMethod = "POST"
    /// let publisher = URLSession.shared.requestPublisher(for: order.addingIdempotencyKey())
    ///     .validateStatus()
    ///     .retry(3, backoff: .exponential(), scheduler: DispatchQueue.main)   // retries timeouts too
    /// ```
    public func addingIdempotencyKey(_ key: String = UUID().uuidString) -> URLRequest {
        var request = self
        request.setValue("\"\(key)\"", forHTTPHeaderField: Self.idempotencyKeyHeader)
        return request
    }
}
