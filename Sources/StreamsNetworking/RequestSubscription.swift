import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams

/// What a transport task's completion calls: a non-generic face, so that the completion
/// captures no generic type.
protocol RequestCompletion: AnyObject, Sendable {
    func finish(_ outcome: Result<NetworkResponse<Data>, NetworkError>)
}

/// One HTTP exchange for one subscriber of an ``HTTPRequestPublisher``, whatever the transport.
/// (Its state is reached only through `state`; the request is not `Sendable` on every platform.)
final class RequestSubscription<Transport: HTTPTransport, Downstream: Subscriber>: Subscription, RequestCompletion,
    CustomStringConvertible, CustomReflectable, @unchecked Sendable
where Downstream.Input == NetworkResponse<Data>, Downstream.Failure == NetworkError {
    private let transport: Transport
    private let request: URLRequest
    private let redirectPolicy: RedirectPolicy
    private let state: LockedState<DataTaskStateMachine<Downstream, any HTTPTransportTask>>

    init(transport: Transport, request: URLRequest, redirectPolicy: RedirectPolicy, downstream: Downstream) {
        self.transport = transport
        self.request = request
        self.redirectPolicy = redirectPolicy
        state = LockedState(DataTaskStateMachine(downstream: downstream))
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "API Violation: demand must not be zero")
        let action = state.withLock { $0.requested(demand, resumingEveryTime: false) }
        guard case .makeTask = action else { return }
        let completion: any RequestCompletion = self
        let task = transport.makeTask(for: request, redirectPolicy: redirectPolicy) { outcome in
            completion.finish(outcome)
        }
        switch state.withLock({ $0.made(task) }) {
        case .resume: task.resume()
        case .cancelUnstarted: task.cancel()
        }
    }

    func finish(_ outcome: Result<NetworkResponse<Data>, NetworkError>) {
        guard case .deliver(let downstream) = state.withLock({ $0.ended() }) else { return }
        switch outcome {
        case .success(let response):
            _ = downstream.receive(response)
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(error))
        }
    }

    func cancel() {
        // The downstream is let go here, outside the lock, when the action goes out of scope.
        switch state.withLock({ $0.cancelled() }) {
        case .none, .release: break
        case .stop(let task, _): task.stop()
        }
    }

    var description: String { "RequestPublisher" }

    /// The request, with no secret shown.
    var customMirror: Mirror {
        Mirror(self, children: ["request": Redaction.request(request, alsoSensitive: redirectPolicy.sensitiveHeaders)])
    }
}
