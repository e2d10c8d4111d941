// Combine's `URLSession.dataTaskPublisher(for:)`, for platforms whose Foundation does not have
// it. Where Apple's Combine exists, Foundation declares these names itself.
#if !canImport(Combine)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsResilience

extension URLSession {
    /// A publisher that loads `url` once per subscription, when the subscriber first asks for a
    /// value, as Combine's does. ``requestPublisher(for:)-(URL)`` is Streams' richer form, with
    /// HTTP responses and ``NetworkError``.
    ///
    /// Cancelling the subscription lets the subscriber go at once and cancels the task. On Linux,
    /// where cancelling a task still asking the session's URL cache could crash the process (as
    /// on `URLSession.shared`), a task is cancelled once its response head has arrived; one that a
    /// `URLProtocol` of the app's answers runs to its end, its result dropped.
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
    public struct DataTaskPublisher: Publisher, CustomReflectable, Sendable {
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
            // Tells the resilience stages subscribing that this call must not be sent twice.
            if !SentRequest(request).isSafeToRepeat { RepeatSafety.declareNotSafe() }
            subscriber.receive(subscription: DataTaskSubscription(parent: self, downstream: subscriber))
        }

        /// The request and the session, the request's credentials, secret query items and body
        /// shown as `<redacted>`.
        public var customMirror: Mirror {
            Mirror(self, children: ["request": Redaction.request(request), "session": "\(session)"])
        }
    }
}

/// What a data task's completion handler calls, without naming a generic type.
protocol DataTaskCompletion: AnyObject, Sendable {
    func finish(data: Data?, response: URLResponse?, error: (any Error)?)
}

/// One data task for one subscriber of ``URLSession/DataTaskPublisher``, as Combine's: the task
/// is made on the first request and resumed on every request; it describes itself
/// "DataTaskPublisher" and reflects its task, downstream, parent and demand.
final class DataTaskSubscription<Downstream: Subscriber>: Subscription, DataTaskCompletion, CustomStringConvertible,
    CustomPlaygroundDisplayConvertible, CustomReflectable, Sendable
where Downstream.Input == URLSession.DataTaskPublisher.Output, Downstream.Failure == URLError {
    private let parent: URLSession.DataTaskPublisher
    let state: LockedState<DataTaskStateMachine<Downstream, URLSessionDataTask>>

    init(parent: URLSession.DataTaskPublisher, downstream: Downstream) {
        self.parent = parent
        state = LockedState(DataTaskStateMachine(downstream: downstream))
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "API Violation: demand must not be zero")
        switch state.withLock({ $0.requested(demand, resumingEveryTime: true) }) {
        case .none:
            return
        case .resume(let task):
            task.resume()
        case .makeTask:
            let completion: any DataTaskCompletion = self
            let task = parent.session.dataTask(with: parent.request) { data, response, error in
                completion.finish(data: data, response: response, error: error)
            }
            switch state.withLock({ $0.made(task) }) {
            case .resume: task.resume()
            case .cancelUnstarted: task.cancel()
            }
        }
    }

    func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
        guard case .deliver(let downstream) = state.withLock({ $0.ended() }) else { return }
        if let error {
            downstream.receive(completion: .failure(error as? URLError ?? URLError(.unknown)))
        } else if let response {
            _ = downstream.receive((data ?? Data(), response))
            downstream.receive(completion: .finished)
        } else {
            // Ended without an error but without a response, as Combine reports it.
            downstream.receive(completion: .failure(URLError(.unknown)))
        }
    }

    func cancel() {
        // The downstream is let go here, outside the lock, when the action goes out of scope.
        switch state.withLock({ $0.cancelled() }) {
        case .none, .release: break
        case .stop(let task, _): parent.session.stop(task)
        }
    }

    var description: String { "DataTaskPublisher" }

    var playgroundDescription: Any { description }

    var customMirror: Mirror {
        let (task, downstream, demand, done) = state.withLock { state in
            (state.task, state.downstream, state.demand, state.isDone)
        }
        let parent: URLSession.DataTaskPublisher? = done ? nil : parent
        // Combine reflects the task object itself; Foundation's mirror of a task on Linux shows
        // its request's headers, so the task shows here as its redacted request.
        let shownTask = task.map { "\(type(of: $0)): \($0.originalRequest.map { Redaction.request($0) } ?? "<no request>")" }
        return Mirror(
            self,
            children: ["task": shownTask as Any, "downstream": downstream as Any, "parent": parent as Any, "demand": demand])
    }
}
#endif
