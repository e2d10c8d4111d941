import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams

extension Publisher where Output == NetworkResponse<Data>, Failure == NetworkError {
    /// Passes on the body of a 2xx response and turns any other status into the matching
    /// ``NetworkError``, with what the error body said and the server's hint for when to try
    /// again (see ``NetworkError/validate(data:response:request:errorBody:)``).
    ///
    /// `errorBody` reads error bodies of a shape of your own; it is asked before the built-in
    /// shapes, and returning nil falls back to them.
    ///
    /// ```swift
    /// let body = URLSession.shared.requestPublisher(for: url).validateStatus()
    /// let legacy = URLSession.shared.requestPublisher(for: url).validateStatus(errorBody: { body, _ in
    ///     String(data: body, encoding: .utf8).map { ProblemDetails(detail: $0) }
    /// })
    /// ```
    public func validateStatus(errorBody: ErrorBodyParser? = nil) -> AnyPublisher<Data, NetworkError> {
        flatMap(maxPublishers: .max(1)) {
            NetworkError.validate(data: $0.value, response: $0.response, request: $0.request, errorBody: errorBody).publisher
        }
        .eraseToAnyPublisher()
    }

    /// As ``validateStatus(errorBody:)``, but a success keeps its HTTP response beside the
    /// body, so that headers (`ETag`, `Link`, rate limits) reach the subscriber;
    /// `decode(type:decoder:)` then keeps it too.
    ///
    /// ```swift
    /// let page = URLSession.shared.requestPublisher(for: url)
    ///     .validateResponse()
    ///     .decode(type: [Repository].self, decoder: JSONDecoder())   // NetworkResponse<[Repository]>
    /// ```
    public func validateResponse(errorBody: ErrorBodyParser? = nil) -> AnyPublisher<NetworkResponse<Data>, NetworkError> {
        flatMap(maxPublishers: .max(1)) { exchange in
            NetworkError.validate(
                data: exchange.value, response: exchange.response, request: exchange.request, errorBody: errorBody
            )
            .map { _ in exchange }
            .publisher
        }
        .eraseToAnyPublisher()
    }
}
