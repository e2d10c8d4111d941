// Combine's `URLSession.dataTaskPublisher(for:)`, for platforms whose Foundation does not have
// it. Where Apple's Combine exists, Foundation declares these names itself.
#if !canImport(Combine)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams

extension URLSession {
    /// A publisher that loads `url` once per subscription, when the subscriber first asks for a
    /// value, as Combine's does. ``requestPublisher(for:)-(URL)`` is Streams' richer form, with
    /// HTTP responses and ``NetworkError``.
    ///
    /// ```swift
    /// let page = URLSession.shared.dataTaskPublisher(for: url).map(\.data)
    /// ```
    public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
        DataTaskPublisher(request: URLRequest(url: url), session: self)
    }

    /// A publisher that performs `request` once per subscription, when the subscriber first
    /// asks for a value.
    ///
    /// ```swift
    /// let page = URLSession.shared.dataTaskPublisher(for: URLRequest(url: url)).map(\.data)
    /// ```
    public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
        DataTaskPublisher(request: request, session: self)
    }

    /// Combine's publisher of one data task: the body and the response, or a `URLError`.
    ///
    /// ```swift
    /// let publisher: URLSession.DataTaskPublisher = URLSession.shared.dataTaskPublisher(for: url)
    /// ```
    public struct DataTaskPublisher: Publisher, @unchecked Sendable {
        /// The body and the response.
        public typealias Output = (data: Data, response: URLResponse)
        /// The transport error.
        public typealias Failure = URLError

        /// The request performed for each subscriber.
        public let request: URLRequest
        /// The session that performs it.
        public let session: URLSession

        /// Makes a publisher of `request` on `session`.
        ///
        /// ```swift
        /// let publisher = URLSession.DataTaskPublisher(request: URLRequest(url: url), session: .shared)
        /// ```
        public init(request: URLRequest, session: URLSession) {
            self.request = request
            self.session = session
        }

        /// Attaches `subscriber`; the task starts on its first request for a value.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == URLError {
            subscriber.receive(subscription: DataTaskSubscription(request: request, session: session, downstream: subscriber))
        }
    }
}

/// What a data task's completion handler calls, without naming a generic type.
protocol DataTaskCompletion: AnyObject, Sendable {
    func finish(data: Data?, response: URLResponse?, error: (any Error)?)
}

/// One data task for one subscriber of ``URLSession/DataTaskPublisher``.
final class DataTaskSubscription<Downstream: Subscriber>: Subscription, DataTaskCompletion, CustomStringConvertible,
    @unchecked Sendable
where Downstream.Input == URLSession.DataTaskPublisher.Output, Downstream.Failure == URLError {
    /// Where the subscription stands; guarded by `lock`.
    private enum Phase {
        case waiting(Downstream)
        case running(Downstream, URLSessionDataTask?)
        case done
    }

    private let request: URLRequest
    private let session: URLSession
    private let lock = Lock()
    private var phase: Phase

    init(request: URLRequest, session: URLSession, downstream: Downstream) {
        self.request = request
        self.session = session
        phase = .waiting(downstream)
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Subscription.request requires a demand greater than .none")
        let started = lock.withLockUnchecked { () -> Bool in
            guard case .waiting(let downstream) = phase else { return false }
            phase = .running(downstream, nil)
            return true
        }
        guard started else { return }
        let completion: any DataTaskCompletion = self
        let task = session.dataTask(with: request) { data, response, error in
            completion.finish(data: data, response: response, error: error)
        }
        let keep = lock.withLockUnchecked { () -> Bool in
            guard case .running(let downstream, nil) = phase else { return false }
            phase = .running(downstream, task)
            return true
        }
        if keep { task.resume() }
    }

    func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
        let downstream = lock.withLockUnchecked { () -> Downstream? in
            guard case .running(let downstream, _) = phase else { return nil }
            phase = .done
            return downstream
        }
        guard let downstream else { return }
        if let error {
            downstream.receive(completion: .failure(error as? URLError ?? URLError(.unknown)))
        } else if let response {
            _ = downstream.receive((data ?? Data(), response))
            downstream.receive(completion: .finished)
        } else {
            downstream.receive(completion: .failure(URLError(.badServerResponse)))
        }
    }

    func cancel() {
        // Taken out of the lock, so that the subscriber is released outside it.
        let previous = lock.withLockUnchecked { () -> Phase in
            defer { phase = .done }
            return phase
        }
        if case .running(_, let task?) = previous {
            task.cancel()
        }
    }

    var description: String { "DataTaskPublisher" }
}
#endif
