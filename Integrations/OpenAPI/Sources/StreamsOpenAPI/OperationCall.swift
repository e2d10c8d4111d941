import Foundation
import HTTPTypes
import OpenAPIRuntime
import StreamsNetworking
import StreamsResilience
import Synchronization

/// One operation through ``ResilienceMiddleware``: the request as StreamsNetworking's taxonomy
/// sees it, the attempts, and the bodies of the failed responses it holds until the retry
/// decides which one, if any, is returned.
///
/// Inside the pipeline a response whose status is not a 2xx is thrown as a ``FailedResponse``
/// and an error of `next` as a ``FailedTransport``, each with the category and hint that decide
/// the retry and the breaker; `run` turns the outcome back: the returned response, the last
/// failed response, or `next`'s error unchanged. The failed responses' bodies stay here, out of
/// the errors that the pipeline's events and reports may keep: a body is let go when a later
/// attempt starts (it was retried) or when the call ends (unless it is the one returned).
final class OperationCall: Sendable {
    /// A failed response's body, and the attempt that got it.
    private struct Held: Sendable {
        let attempt: Int
        let body: HTTPBody
    }

    private struct State {
        var nextTicket = 0
        var held: [Int: Held] = [:]
        /// Whether a body that can be sent once has been handed to `next`.
        var sent = false
        /// That send's failure, given again if the operation is called once more.
        var firstFailure: (any Error)?
    }

    /// The header that makes a repeat recognisable to the server.
    private static let idempotencyKey = HTTPField.Name(URLRequest.idempotencyKeyHeader)!

    /// The method and idempotency key, which decide whether repeating the request is safe.
    let request: SentRequest
    /// The method and origin, named in the pipeline's events (never the path or query).
    let identity: ResilienceRequestIdentity
    /// False for a body that can be iterated once (a stream): the request is then sent once.
    let bodyIsRepeatable: Bool
    private let state = Mutex(State())

    init(request: HTTPRequest, body: HTTPBody?, baseURL: URL? = nil) {
        self.request = SentRequest(
            method: request.method.rawValue, idempotencyKey: request.headerFields[Self.idempotencyKey])
        identity = ResilienceRequestIdentity(method: request.method.rawValue, origin: Self.origin(of: request, baseURL: baseURL))
        bodyIsRepeatable = body?.iterationBehavior != .single
    }

    /// `scheme://host:port` of `request`, or of `baseURL` where the request names none, with the
    /// scheme's default port when none is named (as StreamsNetworking names a `URLRequest`).
    private static func origin(of request: HTTPRequest, baseURL: URL?) -> String {
        let scheme = (request.scheme ?? baseURL?.scheme ?? "").lowercased()
        var authority = (request.authority ?? baseURL?.host ?? "").lowercased()
        if request.authority == nil, let port = baseURL?.port { authority += ":\(port)" }
        let hostEnd = authority.lastIndex(of: "]") ?? authority.startIndex
        if !authority[hostEnd...].contains(":"), let port = ["https": 443, "http": 80][scheme] {
            authority += ":\(port)"
        }
        return scheme.isEmpty ? authority : "\(scheme)://\(authority)"
    }

    /// Runs `send` through `pipeline`: what an attempt returned, the last failed response when
    /// the retry gave up on a status, or the error that ended the call (`next`'s unchanged).
    func run<C: Clock>(
        through pipeline: ResiliencePipeline, clock: C,
        send: @escaping @Sendable () async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) where C.Duration == Duration, C.Instant: TimelineInstant {
        do {
            let outcome = try await pipeline.execute(
                clock: clock, isSafeToRepeat: request.isSafeToRepeat && bodyIsRepeatable, request: identity
            ) { attempt in
                try await self.attempt(attempt.number, send: send)
            }
            finish()
            return outcome
        } catch let failure as FailedResponse {
            return (failure.response, finish(keeping: failure.ticket))
        } catch let failure as FailedTransport {
            finish()
            throw failure.error
        } catch {
            finish()
            throw error
        }
    }

    /// Attempt `number`: the response if its status is a 2xx; otherwise it throws.
    private func attempt(
        _ number: Int, send: () async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try begin(number)
        let response: HTTPResponse
        let body: HTTPBody?
        do {
            (response, body) = try await send()
        } catch {
            let cause = (error as? ClientError)?.underlyingError ?? error
            let retryAfter = (cause as? any RetryAfterProviding)?.retryAfter
            throw record(FailedTransport(error: error, cause: cause, category: category(of: cause), retryAfter: retryAfter))
        }
        guard let failure = failure(of: response) else { return (response, body) }
        let ticket = hold(body, attempt: number)
        throw record(
            FailedResponse(response: response, failure: failure, category: repeatable(failure.category), ticket: ticket))
    }

    /// Before attempt `number` sends: lets go of the earlier attempts' bodies (the retry did not
    /// return them); for a body that can be sent once and was, throws that send's failure again.
    private func begin(_ number: Int) throws {
        let released = try state.withLock { state -> [Held] in
            if !bodyIsRepeatable {
                if state.sent { throw state.firstFailure ?? CancellationError() }
                state.sent = true
                return []
            }
            let earlier = state.held.filter { $0.value.attempt < number }
            for ticket in earlier.keys { state.held[ticket] = nil }
            return Array(earlier.values)
        }
        // Released here, after the lock: a transport's body may run code as it goes.
        _ = consume released
    }

    /// Keeps `body` until the retry decides; returns its ticket.
    private func hold(_ body: HTTPBody?, attempt: Int) -> Int {
        state.withLock { state in
            let ticket = state.nextTicket
            state.nextTicket += 1
            if let body { state.held[ticket] = Held(attempt: attempt, body: body) }
            return ticket
        }
    }

    /// `failure`, kept as the first failure of a body that can be sent once.
    private func record<Failure: Error>(_ failure: Failure) -> Failure {
        if !bodyIsRepeatable { state.withLock { $0.firstFailure = failure } }
        return failure
    }

    /// Lets go of every body held, except the one of `ticket`, which it returns.
    @discardableResult
    private func finish(keeping ticket: Int? = nil) -> HTTPBody? {
        let (kept, released) = state.withLock { state -> (HTTPBody?, [Int: Held]) in
            let kept = ticket.flatMap { state.held.removeValue(forKey: $0)?.body }
            let released = state.held
            state.held = [:]
            state.firstFailure = nil
            return (kept, released)
        }
        _ = consume released
        return kept
    }

    /// The failure a response is in StreamsNetworking's taxonomy, or nil for a 2xx.
    private func failure(of response: HTTPResponse) -> NetworkError? {
        let status = response.status.code
        guard !(200..<300).contains(status) else { return nil }
        let fields = response.headerFields
        let hint = HTTPErrorResponse.retryAfterHint(status: status) { name in HTTPField.Name(name).flatMap { fields[$0] } }
        return NetworkError(status: HTTPErrorResponse(status: status, retryAfter: hint, request: request))
    }

    /// What the retry may do about `cause`, an error of the transport: a `URLError` as
    /// StreamsNetworking judges a transport failure of this request; another error by its own
    /// category, retried only when the request is safe to repeat.
    private func category(of cause: any Error) -> ErrorCategory {
        if let urlError = cause as? URLError {
            return repeatable(NetworkError.transport(urlError, request: request).category)
        }
        let own = cause.resolveCategory()
        return repeatable(own == .retryable && !request.isSafeToRepeat ? .nonRetryable : own)
    }

    /// `category`, unless the body cannot be sent again: then nothing is retryable.
    private func repeatable(_ category: ErrorCategory) -> ErrorCategory {
        bodyIsRepeatable || category != .retryable ? category : .nonRetryable
    }
}
