import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization

/// Stands in for what follows the middleware (the other middlewares and the transport): it
/// answers each call with the next of its scripted outcomes, reads the request body as a
/// transport would, and records what it was sent. Each response carries `X-Attempt: n` and a
/// body of its own, which it watches without keeping, to tell when the middleware lets it go.
final class ScriptedNext: Sendable {
    /// What one call does.
    enum Outcome: Sendable {
        /// Answers with `status` and `headers`.
        case status(Int, [String: String] = [:])
        /// Throws `error`.
        case fail(any Error)
        /// Waits until the call's task is cancelled, then throws `CancellationError`.
        case waitForCancel
    }

    /// A response body, watched without being kept.
    private struct Watched: @unchecked Sendable {
        weak var body: HTTPBody?
    }

    private struct State {
        var outcomes: [Outcome]
        var requests: [HTTPRequest] = []
        var sentBodies: [String?] = []
        var responseBodies: [Watched] = []
        /// For each call, whether every earlier response body had been let go when it began.
        var earlierBodiesReleased: [Bool] = []
    }

    private let state: Mutex<State>
    private let called: AsyncStream<Int>.Continuation
    /// The number of each call, as it begins.
    let callStarted: AsyncStream<Int>

    init(_ outcomes: [Outcome]) {
        state = Mutex(State(outcomes: outcomes))
        (callStarted, called) = AsyncStream.makeStream()
    }

    /// How many times it was called.
    var calls: Int { state.withLock { $0.requests.count } }
    /// The requests it was sent.
    var requests: [HTTPRequest] { state.withLock { $0.requests } }
    /// The request bodies it read, as text (nil for none).
    var sentBodies: [String?] { state.withLock { $0.sentBodies } }
    /// For each call, whether the earlier calls' response bodies were all let go when it began.
    var earlierBodiesReleased: [Bool] { state.withLock { $0.earlierBodiesReleased } }
    /// Whether no response body it made is still alive.
    var everyResponseBodyReleased: Bool { state.withLock { $0.responseBodies.allSatisfy { $0.body == nil } } }

    /// Whether `body` is the response body of call `number` (from 1).
    func isResponseBody(_ body: HTTPBody?, ofCall number: Int) -> Bool {
        guard let body else { return false }
        return state.withLock { $0.responseBodies[number - 1].body === body }
    }

    /// One call, as the middleware's `next`.
    @Sendable func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL) async throws -> (HTTPResponse, HTTPBody?) {
        let (number, outcome) = state.withLock { state in
            state.earlierBodiesReleased.append(state.responseBodies.allSatisfy { $0.body == nil })
            state.requests.append(request)
            return (state.requests.count, state.outcomes.isEmpty ? Outcome.status(200) : state.outcomes.removeFirst())
        }
        called.yield(number)
        var sent: String?
        if let body { sent = try await String(collecting: body, upTo: 1_024) }
        state.withLock { $0.sentBodies.append(sent) }
        switch outcome {
        case .status(let code, let headers):
            var fields: HTTPFields = [HTTPField.Name("X-Attempt")!: "\(number)"]
            for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
            let responseBody = HTTPBody("response \(number)")
            state.withLock { $0.responseBodies.append(Watched(body: responseBody)) }
            return (HTTPResponse(status: .init(code: code), headerFields: fields), responseBody)
        case .fail(let error):
            state.withLock { $0.responseBodies.append(Watched(body: nil)) }
            throw error
        case .waitForCancel:
            state.withLock { $0.responseBodies.append(Watched(body: nil)) }
            try await Task.sleep(for: .seconds(86_400))
            throw CancellationError()
        }
    }
}
