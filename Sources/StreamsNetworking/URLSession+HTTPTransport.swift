import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `URLSession` sends requests as an ``HTTPTransport``: a data task per exchange, whose task
/// delegate applies the ``RedirectPolicy``, and which is cancelled on the wire when given up (on
/// Linux, with a URL cache, once its response head has arrived; a task a `URLProtocol` of the
/// app's answers runs to its end).
///
/// ```swift
/// let transport: any HTTPTransport = URLSession.shared
/// ```
extension URLSession: HTTPTransport {
    /// Makes a data task for `request`, with `redirectPolicy` as its task delegate's answer to
    /// redirects; a transport error becomes ``NetworkError/transport(_:request:)`` and a
    /// refused redirect the policy's error.
    ///
    /// ```swift
    /// let task = URLSession.shared.makeTask(for: request, redirectPolicy: .default) { print($0) }
    /// task.resume()
    /// ```
    public func makeTask(
        for request: URLRequest, redirectPolicy: RedirectPolicy,
        completion: @escaping @Sendable (Result<NetworkResponse<Data>, NetworkError>) -> Void
    ) -> any HTTPTransportTask {
        let redirects = RedirectDelegate(policy: redirectPolicy)
        let task = dataTask(with: request) { data, response, error in
            completion(Self.outcome(of: request, data: data, response: response, error: error, refusal: redirects.refusal))
        }
        task.delegate = redirects
        return URLSessionTransportTask(session: self, task: task)
    }

    /// What a data task's completion handler reports, as the request publisher delivers it: a
    /// refused redirect first (the task then ends with the redirect response), then the error,
    /// then the HTTP response.
    static func outcome(
        of request: URLRequest, data: Data?, response: URLResponse?, error: (any Error)?, refusal: NetworkError?
    ) -> Result<NetworkResponse<Data>, NetworkError> {
        if let refusal { return .failure(refusal) }
        if let error {
            let urlError = error as? URLError ?? URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error])
            return .failure(.transport(urlError, request: SentRequest(request)))
        }
        guard let response = response as? HTTPURLResponse else { return .failure(.invalidResponse) }
        return .success(NetworkResponse(value: data ?? Data(), response: response, request: SentRequest(request)))
    }
}

/// A URLSession data task as an ``HTTPTransportTask``: stopping it cancels it as soon as that is
/// safe (`URLSession.stop(_:)`).
final class URLSessionTransportTask: HTTPTransportTask, Sendable {
    // Both are immutable, and URLSession's objects are safe to use from any thread.
    let session: URLSession
    let task: URLSessionDataTask

    init(session: URLSession, task: URLSessionDataTask) {
        self.session = session
        self.task = task
    }

    func resume() { task.resume() }

    func cancel() { task.cancel() }

    func stop() { session.stop(task) }
}
