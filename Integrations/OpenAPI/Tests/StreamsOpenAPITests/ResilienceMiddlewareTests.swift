// The middleware driven directly, with a scripted `next`: what is retried, after how long, what
// is returned or thrown, what the breaker counts, and what becomes of the bodies.
import Foundation
import HTTPTypes
import OpenAPIRuntime
import StreamsNetworking
import StreamsOpenAPI
import StreamsResilience
import Testing

@Suite("ResilienceMiddleware")
struct ResilienceMiddlewareTests {
    static let baseURL = URL(string: "https://api.example.com/v1")!
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    static let attempt = HTTPField.Name("X-Attempt")!

    static func request(_ method: HTTPRequest.Method, key: String? = nil) -> HTTPRequest {
        var request = HTTPRequest(method: method, scheme: nil, authority: nil, path: "/greeting")
        if let key { request.headerFields[idempotencyKey] = key }
        return request
    }

    /// Up to `retries` retries, with no backoff of their own: every wait is the server's hint.
    static func retrying(_ retries: Int = 2, retryOn: Set<ErrorCategory> = [.retryable]) -> ResiliencePolicy {
        ResiliencePolicy(retry: .init(maxRetries: retries, backoff: .immediate, retryOn: retryOn))
    }

    /// A retry and a breaker that opens after two failures in a row and stays open 30 seconds;
    /// an open circuit is not waited for (its time left is over `retryAfterLimit`).
    static var breaking: ResiliencePolicy {
        ResiliencePolicy(
            retry: .init(maxRetries: 1, backoff: .immediate, retryAfterLimit: .zero),
            circuitBreaker: .init(failureRatio: 1, window: .count(2), minimumThroughput: 2, breakDuration: .seconds(30)))
    }

    /// A middleware over a new registry of `policy`, on `clock`, telling `log`.
    static func middleware(
        _ policy: ResiliencePolicy, clock: RecordingClock = RecordingClock(), log: EventLog = EventLog(),
        key: @escaping ResilienceMiddleware<RecordingClock>.Key = { operationID, _, _ in operationID }
    ) -> ResilienceMiddleware<RecordingClock> {
        ResilienceMiddleware(registry: ResilienceRegistry(policy: policy, events: log.observer), clock: clock, key: key)
    }

    /// One operation through `middleware`, with `next` behind it.
    static func send(
        _ request: HTTPRequest, body: HTTPBody? = nil, operationID: String = "getGreeting",
        through middleware: ResilienceMiddleware<RecordingClock>, to next: ScriptedNext
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await middleware.intercept(request, body: body, baseURL: baseURL, operationID: operationID) {
            try await next.send($0, body: $1, baseURL: $2)
        }
    }

    /// The error `next` throws behind a generated client: the transport's, inside `ClientError`.
    static func clientError(_ cause: URLError) -> ClientError {
        ClientError(
            operationID: "getGreeting", operationInput: (), causeDescription: "Transport threw an error.", underlyingError: cause)
    }

    // MARK: Passing through and retrying statuses

    @Test func aSuccessIsPassedThroughUnchanged() async throws {
        let next = ScriptedNext([.status(200, ["ETag": "\"v1\""])])
        let request = Self.request(.put)
        let (response, body) = try await Self.send(
            request, body: HTTPBody("hello"), through: Self.middleware(Self.retrying()), to: next)
        #expect(response.status == .ok)
        #expect(response.headerFields[.eTag] == "\"v1\"")
        #expect(next.isResponseBody(body, ofCall: 1))
        #expect(next.requests == [request])
        #expect(next.sentBodies == ["hello"])
    }

    @Test func a503IsRetriedAndTheSuccessReturned() async throws {
        let next = ScriptedNext([.status(503), .status(200)])
        let log = EventLog()
        let (response, body) = try await Self.send(
            Self.request(.get), through: Self.middleware(Self.retrying(), log: log), to: next)
        #expect(response.status == .ok)
        #expect(response.headerFields[Self.attempt] == "2")
        #expect(next.isResponseBody(body, ofCall: 2))
        #expect(next.calls == 2)
        #expect(log.retryDelays == [.zero])
        #expect(log.retriedErrors == ["server error 503 (GET)"])
    }

    @Test func eachEventNamesTheOperationTheAttemptAndTheRequestsMethodAndOrigin() async throws {
        let next = ScriptedNext([.status(503), .status(200)])
        let log = EventLog()
        _ = try await Self.send(Self.request(.get), through: Self.middleware(Self.retrying(), log: log), to: next)
        let identity = ResilienceRequestIdentity(method: "GET", origin: "https://api.example.com:443")
        #expect(log.contexts.map(\.request) == Array(repeating: identity, count: log.contexts.count))
        #expect(log.contexts.allSatisfy { $0.operation == "getGreeting" })
        #expect(log.contexts.map(\.attempt) == [1, 1, 1, 2, 2])
    }

    @Test func retryAfterInSecondsIsWaitedFor() async throws {
        let next = ScriptedNext([.status(503, ["Retry-After": "3"]), .status(200)])
        let clock = RecordingClock()
        let log = EventLog()
        let (response, _) = try await Self.send(
            Self.request(.get), through: Self.middleware(Self.retrying(), clock: clock, log: log), to: next)
        #expect(response.status == .ok)
        #expect(clock.sleeps == [.seconds(3)])
        #expect(log.retryDelays == [.seconds(3)])
    }

    @Test func retryAfterAsADateIsMeasuredAgainstTheResponsesDate() async throws {
        let busy: [String: String] = ["Date": "Sun, 06 Nov 1994 08:49:37 GMT", "Retry-After": "Sun, 06 Nov 1994 08:50:07 GMT"]
        let next = ScriptedNext([.status(503, busy), .status(200)])
        let clock = RecordingClock()
        let (response, _) = try await Self.send(
            Self.request(.get), through: Self.middleware(Self.retrying(), clock: clock), to: next)
        #expect(response.status == .ok)
        #expect(clock.sleeps == [.seconds(30)])
    }

    @Test func aRateLimitHeaderOnA429IsWaitedForEvenForAPost() async throws {
        // 429: the server did not act on the request, so a POST is retried too; `Retry-After`
        // wins over the rate-limit reset.
        let next = ScriptedNext([.status(429, ["Retry-After": "2", "X-RateLimit-Reset": "7"]), .status(201)])
        let clock = RecordingClock()
        let (response, _) = try await Self.send(
            Self.request(.post), through: Self.middleware(Self.retrying(), clock: clock), to: next)
        #expect(response.status == .created)
        #expect(clock.sleeps == [.seconds(2)])
    }

    @Test func whenTheRetryGivesUpTheLastResponseIsReturnedUnchanged() async throws {
        let next = ScriptedNext([.status(503, ["Retry-After": "1"]), .status(503), .status(503, ["X-Reason": "maintenance"])])
        let (response, body) = try await Self.send(Self.request(.get), through: Self.middleware(Self.retrying(2)), to: next)
        #expect(response.status == .serviceUnavailable)
        #expect(response.headerFields[Self.attempt] == "3")
        #expect(response.headerFields[HTTPField.Name("X-Reason")!] == "maintenance")
        #expect(next.isResponseBody(body, ofCall: 3))
        #expect(try await String(collecting: #require(body), upTo: 100) == "response 3")
        #expect(next.calls == 3)
    }

    @Test func aHintLongerThanTheRetryAfterLimitGivesUpAtOnce() async throws {
        let next = ScriptedNext([.status(503, ["Retry-After": "120"]), .status(200)])
        let clock = RecordingClock()
        let (response, body) = try await Self.send(
            Self.request(.get), through: Self.middleware(Self.retrying(), clock: clock), to: next)
        #expect(response.status == .serviceUnavailable)
        #expect(next.isResponseBody(body, ofCall: 1))
        #expect(next.calls == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test(arguments: [400, 404, 409, 422, 501, 304])
    func aStatusThatIsNotRetryableIsReturnedAtOnce(_ status: Int) async throws {
        let next = ScriptedNext([.status(status), .status(200)])
        let clock = RecordingClock()
        let (response, body) = try await Self.send(
            Self.request(.get), through: Self.middleware(Self.retrying(), clock: clock), to: next)
        #expect(response.status.code == status)
        #expect(next.isResponseBody(body, ofCall: 1))
        #expect(next.calls == 1)
        #expect(clock.sleeps.isEmpty)
    }

    // MARK: Methods and bodies

    @Test func aPostIsNotRetriedAfterItMayHaveReachedTheServer() async throws {
        let unavailable = ScriptedNext([.status(503), .status(200)])
        let middleware = Self.middleware(Self.retrying())
        let (response, body) = try await Self.send(Self.request(.post), through: middleware, to: unavailable)
        #expect(response.status == .serviceUnavailable)
        #expect(unavailable.isResponseBody(body, ofCall: 1))
        #expect(unavailable.calls == 1)

        let timedOut = ScriptedNext([.fail(URLError(.timedOut)), .status(200)])
        await #expect(throws: URLError(.timedOut)) {
            try await Self.send(Self.request(.patch), through: middleware, to: timedOut)
        }
        #expect(timedOut.calls == 1)
    }

    @Test func aPostIsRetriedWhenItCannotHaveReachedTheServer() async throws {
        let next = ScriptedNext([.fail(URLError(.cannotConnectToHost)), .status(201)])
        let (response, _) = try await Self.send(Self.request(.post), through: Self.middleware(Self.retrying()), to: next)
        #expect(response.status == .created)
        #expect(next.calls == 2)
    }

    @Test func aPostWithAnIdempotencyKeyIsRetried() async throws {
        let next = ScriptedNext([.status(503), .fail(URLError(.timedOut)), .status(201)])
        let request = Self.request(.post, key: "\"8e03978e\"")
        let (response, _) = try await Self.send(
            request, body: HTTPBody("order"), through: Self.middleware(Self.retrying()), to: next)
        #expect(response.status == .created)
        #expect(next.requests == [request, request, request])
        #expect(next.sentBodies == ["order", "order", "order"])
    }

    @Test func aBodyThatCanBeReadOnceIsSentOnce() async throws {
        let next = ScriptedNext([.status(503), .status(200)])
        let upload = HTTPBody(Array("upload".utf8), length: .known(6), iterationBehavior: .single)
        let (response, body) = try await Self.send(
            Self.request(.put), body: upload, through: Self.middleware(Self.retrying()), to: next)
        #expect(response.status == .serviceUnavailable)
        #expect(next.isResponseBody(body, ofCall: 1))
        #expect(next.sentBodies == ["upload"])
    }

    @Test func aBodyThatCanBeReadOnceIsSentOnceEvenWhenThePolicyRetriesEverything() async throws {
        let next = ScriptedNext([.status(503), .status(200)])
        let upload = HTTPBody(Array("upload".utf8), length: .known(6), iterationBehavior: .single)
        let middleware = Self.middleware(Self.retrying(2, retryOn: [.retryable, .nonRetryable]))
        let (response, body) = try await Self.send(Self.request(.put), body: upload, through: middleware, to: next)
        #expect(response.status == .serviceUnavailable)
        #expect(next.isResponseBody(body, ofCall: 1))
        #expect(next.calls == 1)
    }

    @Test func aBodyThatCanBeReadAgainIsSentWithEveryAttempt() async throws {
        let next = ScriptedNext([.status(503), .status(200)])
        let (response, _) = try await Self.send(
            Self.request(.put), body: HTTPBody("payload"), through: Self.middleware(Self.retrying()), to: next)
        #expect(response.status == .ok)
        #expect(next.sentBodies == ["payload", "payload"])
    }

    @Test func theBodiesOfRetriedResponsesAreLetGoBeforeTheNextAttempt() async throws {
        let next = ScriptedNext([.status(503), .status(502), .status(504)])
        var (response, body): (HTTPResponse, HTTPBody?) = try await Self.send(
            Self.request(.get), through: Self.middleware(Self.retrying(2)), to: next)
        #expect(next.earlierBodiesReleased == [true, true, true])
        #expect(response.status == .gatewayTimeout)
        #expect(next.isResponseBody(body, ofCall: 3))
        #expect(!next.everyResponseBodyReleased)
        (response, body) = (HTTPResponse(status: .ok), nil)
        #expect(next.everyResponseBodyReleased)
    }

    @Test func aGetIsHedgedAndAPostIsNot() async throws {
        let hedging = ResiliencePolicy(hedging: Hedging(maxAttempts: 2, delay: .seconds(1)))
        let get = ScriptedNext([.status(503), .status(200)])
        let (response, _) = try await Self.send(Self.request(.get), through: Self.middleware(hedging), to: get)
        #expect(response.status == .ok)
        #expect(get.calls == 2)

        let post = ScriptedNext([.status(503), .status(200)])
        let (refused, _) = try await Self.send(Self.request(.post), through: Self.middleware(hedging), to: post)
        #expect(refused.status == .serviceUnavailable)
        #expect(post.calls == 1)
    }

    // MARK: Transport errors

    @Test func aTransportErrorIsRetriedByItsCategoryAndRethrownUnchanged() async throws {
        let next = ScriptedNext([
            .fail(Self.clientError(URLError(.networkConnectionLost))), .fail(Self.clientError(URLError(.badURL))),
        ])
        let error = await #expect(throws: ClientError.self) {
            try await Self.send(Self.request(.get), through: Self.middleware(Self.retrying()), to: next)
        }
        #expect(error?.underlyingError as? URLError == URLError(.badURL))
        #expect(error?.causeDescription == "Transport threw an error.")
        #expect(next.calls == 2)
    }

    // MARK: The circuit breaker

    @Test func theBreakerCountsRetriedStatusesAndThenFailsFast() async throws {
        let middleware = Self.middleware(Self.breaking)
        let failing = ScriptedNext([.status(503), .status(503)])
        let (response, _) = try await Self.send(Self.request(.get), through: middleware, to: failing)
        #expect(response.status == .serviceUnavailable)
        #expect(failing.calls == 2)
        #expect(middleware.registry.pipeline(for: "getGreeting").circuitBreaker?.currentState == .open)

        let untouched = ScriptedNext([.status(200)])
        await #expect(throws: CircuitOpenError.self) {
            try await Self.send(Self.request(.get), through: middleware, to: untouched)
        }
        #expect(untouched.calls == 0)
    }

    @Test func aNonRetryableStatusCountsAsASuccess() async throws {
        let middleware = Self.middleware(Self.breaking)
        let next = ScriptedNext([.status(404), .status(404), .status(404)])
        for _ in 1...3 {
            let (response, _) = try await Self.send(Self.request(.get), through: middleware, to: next)
            #expect(response.status == .notFound)
        }
        #expect(middleware.registry.pipeline(for: "getGreeting").circuitBreaker?.currentState == .closed)
    }

    @Test func eachOperationHasItsOwnBreaker() async throws {
        let middleware = Self.middleware(Self.breaking)
        let failing = ScriptedNext([.status(503), .status(503)])
        _ = try await Self.send(Self.request(.get), operationID: "getGreeting", through: middleware, to: failing)
        let other = ScriptedNext([.status(200)])
        let (response, _) = try await Self.send(Self.request(.get), operationID: "listGreetings", through: middleware, to: other)
        #expect(response.status == .ok)
        #expect(other.calls == 1)
    }

    @Test func aKeyFunctionCanShareOneBreakerBetweenOperations() async throws {
        let middleware = Self.middleware(Self.breaking) { _, _, baseURL in baseURL.host ?? "" }
        let failing = ScriptedNext([.status(503), .status(503)])
        _ = try await Self.send(Self.request(.get), operationID: "getGreeting", through: middleware, to: failing)
        let other = ScriptedNext([.status(200)])
        await #expect(throws: CircuitOpenError.self) {
            try await Self.send(Self.request(.get), operationID: "listGreetings", through: middleware, to: other)
        }
        #expect(other.calls == 0)
        #expect(middleware.registry.keys == ["api.example.com"])
    }

    // MARK: Cancellation

    @Test func cancellingTheCallerDuringAnAttemptEndsTheCallAtOnce() async throws {
        let next = ScriptedNext([.waitForCancel, .status(200)])
        let middleware = Self.middleware(Self.retrying())
        let call = Task { try await Self.send(Self.request(.get), through: middleware, to: next) }
        for await _ in next.callStarted { break }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(next.calls == 1)
    }

    @Test func cancellingTheCallerDuringAWaitEndsTheCallAtOnce() async throws {
        let next = ScriptedNext([.status(503, ["Retry-After": "5"]), .status(200)])
        let clock = RecordingClock(parks: true)
        let middleware = Self.middleware(Self.retrying(), clock: clock)
        let call = Task { try await Self.send(Self.request(.get), through: middleware, to: next) }
        for await _ in clock.sleepStarted { break }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(next.calls == 1)
        #expect(clock.sleeps == [.seconds(5)])
        #expect(next.everyResponseBodyReleased)
    }
}
