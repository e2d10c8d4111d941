// Error bodies, statuses and rate-limit headers, as a server sends them over loopback.
#if canImport(Glibc)
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsNetworking
import StreamsNetworkingTestSupport
import StreamsTesting
import Testing

/// Runs `publisher` to its end and returns what it sent and how it failed.
func outcome<P: Publisher>(of publisher: P) -> (values: [P.Output], error: NetworkError?) where P.Failure == NetworkError {
    let done = DispatchSemaphore(value: 0)
    let outcome = Locked<(values: [P.Output], error: NetworkError?)>(([], nil))
    let cancellable = publisher.sink(
        receiveCompletion: { completion in
            if case .failure(let error) = completion { outcome.withLock { $0.error = error } }
            done.signal()
        },
        receiveValue: { value in outcome.withLock { $0.values.append(value) } })
    #expect(done.wait(timeout: .now() + 60) == .success)
    cancellable.cancel()
    return outcome.withLock { $0 }
}

/// A session with no cache, so that every request reaches the server.
func freshSession() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    return URLSession(configuration: configuration)
}

@Suite("Error bodies, statuses and hints from a loopback server")
struct HTTPErrorBodyTests {
    /// The failure of a GET answered with `status`, `headers` and `body`.
    static func failure(
        _ status: Int, _ headers: [String: String] = [:], body: String = "", errorBody: ErrorBodyParser? = nil
    ) throws -> NetworkError? {
        let server = try RecordingHTTPServer { _ in .status(status, headers, body: body) }
        defer { server.stop() }
        return outcome(of: freshSession().requestPublisher(for: server.url("/thing")).validateStatus(errorBody: errorBody)).error
    }

    struct Shape: Sendable, CustomTestStringConvertible {
        let name: String
        let body: String
        let expected: ProblemDetails?
        var testDescription: String { name }
    }

    static let shapes: [Shape] = [
        Shape(
            name: "RFC 9457 problem details with errors",
            body: #"{"type":"https://example.com/probs/invalid","title":"Your request is not valid.","status":422,"#
                + #""detail":"Two fields are wrong.","instance":"/orders/1","#
                + #""errors":[{"detail":"must be a positive integer","pointer":"/age"},{"detail":"is taken","pointer":"/name"}]}"#,
            expected: ProblemDetails(
                type: "https://example.com/probs/invalid", title: "Your request is not valid.", status: 422,
                detail: "Two fields are wrong.", instance: "/orders/1",
                fieldErrors: [
                    .init(field: "/age", message: "must be a positive integer"), .init(field: "/name", message: "is taken"),
                ])),
        Shape(
            name: "RFC 7807 invalid-params",
            body: #"{"title":"Invalid","invalid-params":[{"name":"age","reason":"must be positive"}]}"#,
            expected: ProblemDetails(title: "Invalid", fieldErrors: [.init(field: "age", message: "must be positive")])),
        Shape(
            name: "message", body: #"{"message":"Name is taken"}"#, expected: ProblemDetails(detail: "Name is taken")),
        Shape(
            name: "error string", body: #"{"error":"Bad things"}"#, expected: ProblemDetails(title: "Bad things")),
        Shape(
            name: "error object with message and errors",
            body: #"{"error":{"code":422,"message":"Invalid input","errors":{"email":["is invalid","is taken"]}}}"#,
            expected: ProblemDetails(
                status: 422, detail: "Invalid input",
                fieldErrors: [.init(field: "email", message: "is invalid"), .init(field: "email", message: "is taken")])),
        Shape(
            name: "reason", body: #"{"error":true,"reason":"emptyName"}"#, expected: ProblemDetails(detail: "emptyName")),
        Shape(name: "HTML", body: "<html><body>Oops</body></html>", expected: nil),
        Shape(name: "empty", body: "", expected: nil),
        Shape(name: "JSON of another shape", body: #"{"ok":false,"n":[1,2]}"#, expected: nil),
    ]

    @Test(arguments: shapes)
    func errorBodiesAreRead(_ shape: Shape) throws {
        let error = try Self.failure(422, ["Content-Type": "application/problem+json"], body: shape.body)
        guard case .validation(let failure) = error else {
            Issue.record("expected a validation error, got \(String(describing: error))")
            return
        }
        #expect(failure.problem == shape.expected)
        #expect(failure.status == 422)
    }

    @Test func aBodyOverTheLimitIsNotParsedButStillClassified() throws {
        let message = String(repeating: "x", count: ProblemDetails.parsingLimit)
        let error = try Self.failure(404, body: #"{"message":"\#(message)"}"#)
        guard case .notFound(let failure) = error else {
            Issue.record("expected notFound, got \(String(describing: error))"); return
        }
        #expect(failure.problem == nil)
        #expect(ProblemDetails.parse(Data(#"{"message":"\#(message.dropFirst(20))"}"#.utf8))?.detail != nil)
    }

    @Test func aFiftyMegabyteErrorPageIsNeitherParsedNorKept() throws {
        // A hostile or broken server answers with a 50 MB page. The caller's parser is never
        // asked, the library's is never run, and the error holds no byte of the body.
        let page = Data(count: 50 * 1_048_576)
        let server = try RecordingHTTPServer { _ in .respond(status: 500, headers: ["Content-Type": "text/html"], body: page) }
        defer { server.stop() }
        let parsed = Locked<[Int]>([])
        let countingParser: ErrorBodyParser = { body, _ in
            parsed.withLock { $0.append(body.count) }
            return nil
        }
        let error = outcome(
            of: freshSession().requestPublisher(for: server.url("/page")).validateStatus(errorBody: countingParser)
        )
        .error
        guard case .server(let failure) = error else {
            Issue.record("expected a server error, got \(String(describing: error))"); return
        }
        #expect(parsed.withLock { $0 }.isEmpty)
        #expect(failure.problem == nil)
        var dumped = ""
        dump(failure, to: &dumped)
        #expect(dumped.utf8.count < 2_048)
        #expect(String(describing: error).utf8.count < 512)
    }

    @Test func theParsersSeeBodiesUpToTheLimitAndNoLonger() throws {
        let response = try #require(
            HTTPURLResponse(url: URL(string: "https://h/")!, statusCode: 422, httpVersion: nil, headerFields: nil))
        let parsed = Locked<[Int]>([])
        let countingParser: ErrorBodyParser = { body, _ in
            parsed.withLock { $0.append(body.count) }
            return nil
        }
        func body(_ count: Int) -> Data {
            let message = String(repeating: "x", count: count - #"{"message":""}"#.utf8.count)
            return Data(#"{"message":"\#(message)"}"#.utf8)
        }
        let atLimit = NetworkError.validate(
            data: body(ProblemDetails.parsingLimit), response: response, errorBody: countingParser)
        let overLimit = NetworkError.validate(
            data: body(ProblemDetails.parsingLimit + 1), response: response, errorBody: countingParser)
        let huge = NetworkError.validate(data: Data(count: 50 * 1_048_576), response: response, errorBody: countingParser)
        func problem(_ result: Result<Data, NetworkError>) -> ProblemDetails? {
            if case .failure(let error) = result { error.errorResponse?.problem } else { nil }
        }
        #expect(parsed.withLock { $0 } == [ProblemDetails.parsingLimit])
        #expect(problem(atLimit)?.detail?.utf8.count == ProblemDetails.parsingLimit - 14)
        #expect(problem(overLimit) == nil)
        #expect(problem(huge) == nil)
        #expect(ProblemDetails.parse(Data(count: 50 * 1_048_576)) == nil)
    }

    @Test func theCallersParserReadsOtherShapes() throws {
        let error = try Self.failure(400, body: "plain words") { body, response in
            #expect(response.statusCode == 400)
            return ProblemDetails(detail: String(decoding: body, as: UTF8.self))
        }
        #expect(error?.errorResponse?.reason == "plain words")
        // Returning nil falls back to the shapes the library knows.
        let fallback = try Self.failure(400, body: #"{"message":"known"}"#) { _, _ in nil }
        #expect(fallback?.errorResponse?.reason == "known")
    }

    struct StatusCase: Sendable, CustomTestStringConvertible {
        let status: Int
        let name: String
        let category: ErrorCategory
        let title: String
        var testDescription: String { "\(status) → \(name)" }
    }

    static let statuses: [StatusCase] = [
        .init(status: 400, name: "validation", category: .nonRetryable, title: "Please Check Your Input"),
        .init(status: 422, name: "validation", category: .nonRetryable, title: "Please Check Your Input"),
        .init(status: 401, name: "requiresLogin", category: .requiresLogout, title: "Signed Out"),
        .init(status: 403, name: "forbidden", category: .nonRetryable, title: "Not Allowed"),
        .init(status: 404, name: "notFound", category: .nonRetryable, title: "Not Found"),
        .init(status: 409, name: "conflict", category: .nonRetryable, title: "Changed Elsewhere"),
        .init(status: 410, name: "gone", category: .nonRetryable, title: "No Longer Available"),
        .init(status: 413, name: "payloadTooLarge", category: .nonRetryable, title: "Too Large"),
        .init(status: 429, name: "rateLimited", category: .retryable, title: "Server Busy"),
        .init(status: 500, name: "server", category: .retryable, title: "Server Error"),
        .init(status: 502, name: "server", category: .retryable, title: "Server Error"),
        .init(status: 503, name: "server", category: .retryable, title: "Server Error"),
        .init(status: 504, name: "server", category: .retryable, title: "Server Error"),
        .init(status: 501, name: "server", category: .nonRetryable, title: "Server Error"),
        .init(status: 408, name: "unexpectedStatus", category: .retryable, title: "Unexpected Response"),
        .init(status: 418, name: "unexpectedStatus", category: .nonRetryable, title: "Unexpected Response"),
    ]

    /// The name of the case of `error`.
    static func caseName(_ error: NetworkError?) -> String {
        guard let error else { return "none" }
        return String(String(describing: Mirror(reflecting: error).children.first?.label ?? "\(error)"))
    }

    @Test(arguments: statuses)
    func eachStatusHasItsCaseCategoryAndWords(_ expected: StatusCase) throws {
        let error = try #require(try Self.failure(expected.status))
        #expect(Self.caseName(error) == expected.name)
        #expect(error.status == expected.status)
        #expect(error.category == expected.category)
        #expect(error.presentationTitle == expected.title)
        #expect(error.errorDescription == error.presentationMessage)
        #expect(!error.presentationMessage.contains("\(expected.status)"))
        #expect(error.request == SentRequest(method: "GET"))
    }

    @Test func aFieldErrorReachesTheValidationError() throws {
        let body = #"{"errors":{"name":"is taken"}}"#
        guard case .validation(let failure) = try Self.failure(400, body: body) else {
            Issue.record("expected validation"); return
        }
        #expect(failure.fieldErrors == [.init(field: "name", message: "is taken")])
    }

    // MARK: Hints

    static let serverDate = "Tue, 14 Nov 2023 22:13:20 GMT"
    /// `serverDate` in seconds since 1970.
    static let serverEpoch = 1_700_000_000

    @Test(arguments: [429, 503])
    func rateLimitHeadersAreHints(_ status: Int) throws {
        func hint(_ headers: [String: String]) throws -> Duration? { try Self.failure(status, headers)?.retryAfter }
        #expect(try hint(["RateLimit-Reset": "30"]) == .seconds(30))
        #expect(try hint(["X-RateLimit-Reset": "45"]) == .seconds(45))
        // An instant, measured against the server's own Date.
        #expect(try hint(["Date": Self.serverDate, "X-RateLimit-Reset": "\(Self.serverEpoch + 90)"]) == .seconds(90))
        #expect(try hint(["Date": Self.serverDate, "X-RateLimit-Reset": "\(Self.serverEpoch - 90)"]) == .zero)
        #expect(try hint(["RateLimit": #""default";r=0;t=20"#]) == .seconds(20))
        #expect(try hint(["RateLimit": #""day";r=5;t=3600, "minute";r=0;t=40"#]) == .seconds(40))
        #expect(try hint(["RateLimit": "limit=100, remaining=0, reset=15"]) == .seconds(15))
        // The longest wait wins: never sooner than any header asks.
        #expect(try hint(["Retry-After": "10", "RateLimit-Reset": "25"]) == .seconds(25))
        #expect(try hint(["Retry-After": "50", "RateLimit-Reset": "25"]) == .seconds(50))
        #expect(try hint(["RateLimit-Reset": "soon", "RateLimit": "garbage;;=,"]) == nil)
    }

    @Test func rateLimitHeadersAreNoHintOnOtherStatuses() throws {
        #expect(try Self.failure(500, ["RateLimit-Reset": "30"])?.retryAfter == nil)
        #expect(try Self.failure(500, ["Retry-After": "30"])?.retryAfter == .seconds(30))
    }

    @Test func aRateLimitHintSetsTheRetrysWaitOnVirtualTime() throws {
        let server = try RecordingHTTPServer { _ in .status(429, ["RateLimit-Reset": "30"]) }
        defer { server.stop() }
        let scheduler = TestScheduler()
        let retried = DispatchSemaphore(value: 0)
        let delays = Locked<[Duration]>([])
        let cancellable = freshSession().requestPublisher(for: server.url()).validateStatus()
            .retry(
                3, backoff: .constant(.seconds(1)), scheduler: scheduler,
                onRetry: { attempt in
                    delays.withLock { $0.append(attempt.delay) }
                    retried.signal()
                }
            )
            .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(retried.wait(timeout: .now() + 60) == .success)
        #expect(delays.withLock { $0 } == [.seconds(30)])
        #expect(server.requests.count == 1)  // nothing more until the virtual clock moves
        cancellable.cancel()
    }
}
#endif
