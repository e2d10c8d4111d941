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
import StreamsResilience

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

    @Test func aBodyOverTheLimitIsNotParsedButStillClassified() throws {
        let message = String(repeating: "x", count: ProblemDetails.parsingLimit)
        let error = try Self.failure(404, body: #"{"message":"\#(message)"}"#)
        guard case .notFound(let failure) = error else {
            Issue.record("expected notFound, got \(String(describing: error))"); return
        }
        #expect(failure.problem == nil)
        #expect(ProblemDetails.parse(Data(#"{"message":"\#(message.dropFirst(20))"}"#.utf8))?.detail != nil)
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

    @Test func aFieldErrorReachesTheValidationError() throws {
        let body = #"{"errors":{"name":"is taken"}}"#
        guard case .validation(let failure) = try Self.failure(400, body: body) else {
            Issue.record("expected validation"); return
        }
        #expect(failure.fieldErrors == [.init(field: "name", message: "is taken")])
    }

    // MARK: Hints
    // Each body shape, each status, the rate-limit headers and a 50 MB error page are checked on
    // every transport by the transport suite (`ErrorBodyChecks`).

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
