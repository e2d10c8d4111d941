import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StreamsResilience

/// A successful exchange: the body, or what it was decoded into, beside the HTTP response
/// (status and headers) and the request it answers.
///
/// ```swift
/// URLSession.shared.requestPublisher(for: url)
///     .validateResponse()
///     .decode(type: [Repository].self, decoder: JSONDecoder())
///     .sink(receiveCompletion: { _ in }, receiveValue: { page in
///         show(page.value)
///         nextPage = page.header("Link")
///         etag = page.header("ETag")
///     })
/// ```
public struct NetworkResponse<Value> {
    /// The body, or what it was decoded into.
    public var value: Value
    /// The HTTP response: status, headers, URL.
    public let response: HTTPURLResponse
    /// The request it answers.
    public let request: SentRequest
    /// What a resilience pipeline's stages did for the call (its attempts, waits, the budget
    /// left), when it went through `resilientReporting(_:for:scheduler:onFailureReport:)`;
    /// nil otherwise.
    public var resilienceReport: ResilienceReport?

    /// Makes a response.
    ///
    /// ```swift
    /// let page = NetworkResponse(value: Data(), response: httpResponse, request: SentRequest(urlRequest))
    /// ```
    public init(value: Value, response: HTTPURLResponse, request: SentRequest) {
        self.value = value
        self.response = response
        self.request = request
    }

    /// The status code.
    public var status: Int { response.statusCode }

    /// The value of the header `name` (case-insensitive), or nil.
    ///
    /// ```swift
    /// let etag = page.header("ETag")
    /// ```
    public func header(_ name: String) -> String? {
        response.value(forHTTPHeaderField: name)
    }

    /// The same response with `transform` applied to the value.
    ///
    /// ```swift
    /// let names = page.map { $0.map(\.name) }
    /// ```
    public func map<NewValue, Failure: Error>(_ transform: (Value) throws(Failure) -> NewValue) throws(Failure)
        -> NetworkResponse<NewValue>
    {
        var mapped = NetworkResponse<NewValue>(value: try transform(value), response: response, request: request)
        mapped.resilienceReport = resilienceReport
        return mapped
    }
}

extension NetworkResponse where Value == Data {
    /// The body (the name the request publisher's tuple used).
    public var data: Data { value }
}

// The HTTP response is immutable once made.
extension NetworkResponse: @unchecked Sendable where Value: Sendable {}
