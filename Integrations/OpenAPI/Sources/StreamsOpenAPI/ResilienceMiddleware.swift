import Foundation
import HTTPTypes
import OpenAPIRuntime
import StreamsNetworking
import StreamsResilience

/// A `ClientMiddleware` for clients made by Swift OpenAPI Generator that runs each operation
/// through a StreamsResilience pipeline: the limiters, the total timeout, the retry, hedging,
/// the circuit breaker and the attempt timeout of the registry's policy, drawing from the shared
/// state of one pipeline per key (by default, per `operationID`).
///
/// Responses are judged as StreamsNetworking judges them (`NetworkError`'s table):
/// - a 2xx is returned;
/// - any other status is what `NetworkError(status:)` makes of it, with the hint of
///   `HTTPErrorResponse.retryAfterHint(status:now:header:)` (`Retry-After` in seconds or as an
///   HTTP date, and on 429 and 503 the rate-limit headers, measured against the response's
///   `Date`). A status whose category is retryable for this request (408, 429; 500, 502, 503
///   and 504 when the request is safe to repeat) is retried, never sooner than the hint; when
///   the retry gives up (count, budget, a hint over `retryAfterLimit`, the total timeout), the
///   last response is **returned unchanged**, so that the generated client still maps it to its
///   documented case (`.serviceUnavailable`, say). Any other status is returned at once. The
///   circuit breaker counts each response as the pipeline counts a `NetworkError` of its
///   category (`ResiliencePolicy.circuitBreakerFailures`, `[.retryable]` by default): a retried
///   status counts as a failure even when it is finally returned, a 2xx or a 404 as a success.
/// - an error thrown by `next` (the transport's, which the runtime hands over inside a
///   `ClientError`) is retried when its category says so: a `URLError` by StreamsNetworking's
///   rules for a transport failure of this request (a refused connection for any method, a
///   timeout only when the request is safe to repeat), another `CategorizedError` by its own
///   category when the request is safe to repeat; other errors are not retried. When the retry
///   gives up, the error is rethrown unchanged.
///
/// A request is safe to repeat (`SentRequest.isSafeToRepeat`) when its method is idempotent
/// (GET, HEAD, OPTIONS, PUT, DELETE, TRACE) or it carries a non-empty `Idempotency-Key` header;
/// one that is not (a POST, a PATCH) is never hedged, never retried after a timeout, and its
/// statuses and transport failures are retried only where the server cannot have acted on it.
/// A request whose body can be iterated only once (`HTTPBody.iterationBehavior == .single`, a
/// stream) is sent at most once: it is never hedged or retried after `next` was called (a
/// refusal before that, an open circuit or a limiter, is retried as usual), and the body is not
/// buffered; a policy whose `retryOn` retries it anyway gets the first attempt's outcome again
/// without a second send. Bodies that can be iterated again (data, strings) are sent with every
/// attempt.
///
/// The body of a response that is retried is never read: the middleware lets go of it, unread,
/// when the next attempt starts (the transport then cancels its stream), and of every body it
/// still holds when the call ends.
///
/// What the stages refuse is thrown, and the generated client hands it to its caller inside a
/// `ClientError` (`causeDescription` "Middleware of type 'ResilienceMiddleware<ContinuousClock>'
/// threw an error.", `underlyingError` the refusal): `CircuitOpenError`, `LimiterRejectedError`,
/// `AttemptTimeoutError` (when the retry gives up on a timed-out attempt),
/// `DeadlineExceededError`, and `CancellationError` when the calling task is cancelled, which
/// ends the call at once, during an attempt or a wait.
///
/// ```swift
/// let registry = ResilienceRegistry(policy: .standardHTTP)
/// let client = Client(
///     serverURL: try Servers.Server1.url(),
///     transport: URLSessionTransport(),
///     middlewares: [ResilienceMiddleware(registry: registry)])
/// switch try await client.getGreeting() {
/// case .ok(let ok): print(try ok.body.json.message)
/// case .serviceUnavailable: print("still unavailable after the retries")
/// case .undocumented(let status, _): print("status \(status)")
/// }
/// ```
public struct ResilienceMiddleware<C: Clock>: ClientMiddleware where C.Duration == Duration, C.Instant: TimelineInstant {
    /// Names the pipeline an operation runs through, from its `operationID`, its request and
    /// the server's base URL.
    ///
    /// ```swift
    /// let byHost: ResilienceMiddleware<ContinuousClock>.Key = { _, _, baseURL in baseURL.host ?? "" }
    /// ```
    public typealias Key = @Sendable (_ operationID: String, _ request: HTTPRequest, _ baseURL: URL) -> String

    /// Where each key's pipeline comes from: its policy, and the breakers, budgets and limiters
    /// the calls of one key share.
    public let registry: ResilienceRegistry
    /// The clock the pipeline's waits and timeouts run on.
    public let clock: C
    private let key: Key

    /// Runs each operation through `registry`'s pipeline for `key(operationID, request,
    /// baseURL)` (by default the operation's `operationID`, so that each operation has its own
    /// breaker), reading time from `clock`: a test's virtual clock, say.
    ///
    /// ```swift
    /// let middleware = ResilienceMiddleware(registry: registry, clock: testClock)
    /// ```
    public init(
        registry: ResilienceRegistry, clock: C, key: @escaping Key = { operationID, _, _ in operationID }
    ) {
        self.registry = registry
        self.clock = clock
        self.key = key
    }

    /// Runs `next` through the pipeline of the operation's key, as the type's documentation
    /// says: the generated client calls it.
    ///
    /// ```swift
    /// let (response, body) = try await middleware.intercept(
    ///     request, body: nil, baseURL: serverURL, operationID: "getGreeting", next: transport.send)
    /// ```
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let pipeline = registry.pipeline(for: key(operationID, request, baseURL))
        let call = OperationCall(request: request, body: body, baseURL: baseURL)
        // The pipeline runs every attempt in tasks it awaits before it returns: `next` does not
        // outlive this call.
        return try await withoutActuallyEscaping(next) { next in
            try await call.run(through: pipeline, clock: clock) { try await next(request, body, baseURL) }
        }
    }
}

extension ResilienceMiddleware where C == ContinuousClock {
    /// Runs each operation through `registry`'s pipeline for `key(operationID, request,
    /// baseURL)`, by default the operation's `operationID`; time is read from the continuous
    /// clock.
    ///
    /// ```swift
    /// let perOperation = ResilienceMiddleware(registry: ResilienceRegistry(policy: .standardHTTP))
    /// let perHost = ResilienceMiddleware(registry: registry) { _, _, baseURL in baseURL.host ?? "" }
    /// ```
    public init(registry: ResilienceRegistry, key: @escaping Key = { operationID, _, _ in operationID }) {
        self.init(registry: registry, clock: ContinuousClock(), key: key)
    }
}
