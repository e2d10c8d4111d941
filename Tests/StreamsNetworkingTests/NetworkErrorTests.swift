import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsNetworking
import StreamsTesting
import Synchronization
import Testing
import StreamsResilience

@Suite("Request publisher and NetworkError", .serialized)
struct NetworkErrorTests {
    struct Availability: Decodable, Equatable { let isAvailable: Bool }

    let session = StubURLProtocol.session()

    /// Runs the pipeline for `url` and waits for its completion.
    func check(_ url: String) -> (values: [Availability], error: NetworkError?) {
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<(values: [Availability], error: NetworkError?)>(([], nil))
        let cancellable = session.requestPublisher(for: url)
            .validateStatus()
            .decode(type: Availability.self, decoder: JSONDecoder())
            .sink(
                receiveCompletion: { completion in
                    if case .failure(let error) = completion { outcome.withLock { $0.error = error } }
                    done.signal()
                },
                receiveValue: { value in outcome.withLock { $0.values.append(value) } })
        #expect(done.wait(timeout: .now() + 30) == .success)
        cancellable.cancel()
        return outcome.withLock { $0 }
    }

    @Test func successDecodes() {
        let url = "http://stub.test/ok"
        StubURLProtocol.set(.init(status: 200, body: Data(#"{"isAvailable": true}"#.utf8)), for: url)
        let result = check(url)
        #expect(result.values == [Availability(isAvailable: true)])
        #expect(result.error == nil)
    }

    @Test func badRequestCarriesTheServersReason() {
        let url = "http://stub.test/bad"
        StubURLProtocol.set(.init(status: 400, body: Data(#"{"error": true, "reason": "emptyName"}"#.utf8)), for: url)
        guard case .validation(let failure) = check(url).error else { Issue.record("expected a validation error"); return }
        #expect(failure.reason == "emptyName")
    }

    @Test func serverErrorWithoutJSONKeepsTheStatus() {
        let url = "http://stub.test/broken"
        StubURLProtocol.set(.init(status: 500, body: Data("<html>oops</html>".utf8)), for: url)
        let error = check(url).error
        guard case .server(let failure) = error, failure.status == 500, failure.problem == nil, failure.retryAfter == nil else {
            Issue.record("expected a 500, got \(String(describing: error))"); return
        }
        #expect(error?.category == .retryable)
        #expect(error?.errorDescription == "The server had a problem. Please try again later.")
    }

    @Test func retryAfterSecondsAndDates() {
        let seconds = "http://stub.test/busy"
        StubURLProtocol.set(.init(status: 503, headers: ["Retry-After": "1"]), for: seconds)
        #expect(check(seconds).error?.retryAfter == .seconds(1))

        // A date hint is measured against the response's own Date header.
        let dated = "http://stub.test/busy-until"
        StubURLProtocol.set(
            .init(
                status: 503,
                headers: [
                    "Date": "Sun, 06 Nov 1994 08:49:37 GMT", "Retry-After": "Sun, 06 Nov 1994 08:50:07 GMT",
                ]), for: dated)
        #expect(check(dated).error?.retryAfter == .seconds(30))
    }

    @Test func theHintIsReadFromAnyHeaderLookup() {
        func hint(_ status: Int, _ headers: [String: String], now: Date = Date()) -> Duration? {
            HTTPErrorResponse.retryAfterHint(status: status, now: now) { name in
                headers.first { $0.key.lowercased() == name.lowercased() }?.value
            }
        }
        #expect(hint(503, [:]) == nil)
        #expect(hint(500, ["Retry-After": "7"]) == .seconds(7))
        // The rate-limit headers count on 429 and 503 only, and only when there is no valid
        // Retry-After: the server's answer to this request wins over the quota's reset.
        #expect(hint(503, ["Retry-After": "5", "RateLimit-Reset": "30"]) == .seconds(5))
        #expect(hint(429, ["Retry-After": "1", "RateLimit-Reset": "3"]) == .seconds(1))
        #expect(hint(429, ["Retry-After": "later", "RateLimit-Reset": "3"]) == .seconds(3))
        #expect(hint(429, ["Retry-After": "9", "X-RateLimit-Reset": "3"]) == .seconds(9))
        #expect(hint(429, ["ratelimit": #""default";r=0;t=45"#]) == .seconds(45))
        #expect(hint(500, ["RateLimit-Reset": "30"]) == nil)
        // A date is measured against the response's Date header, else against `now`.
        let dated = ["Date": "Sun, 06 Nov 1994 08:49:37 GMT", "Retry-After": "Sun, 06 Nov 1994 08:50:07 GMT"]
        #expect(hint(503, dated) == .seconds(30))
        let now = Date(timeIntervalSince1970: 784_111_767)  // Sun, 06 Nov 1994 08:49:27 GMT
        #expect(hint(503, ["Retry-After": "Sun, 06 Nov 1994 08:50:07 GMT"], now: now) == .seconds(40))
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`-style text for `date`.
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// A validation of a 503 whose `Date` header is `date` and whose hint is a date 5 minutes
    /// from the client's clock.
    func hint(withDateHeader date: String) -> Duration? {
        let headers = ["Date": date, "Retry-After": Self.httpDate(Date() + 300)]
        let response = HTTPURLResponse(
            url: URL(string: "http://stub.test/")!, statusCode: 503, httpVersion: "HTTP/1.1", headerFields: headers)!
        guard case .failure(let error) = NetworkError.validate(data: Data(), response: response) else { return nil }
        return error.retryAfter
    }

    @Test(arguments: ["\t86400", "86400", " 86400", "86400\t", "soon", ""])
    func aDateHeaderThatIsNotADateIsIgnored(_ header: String) throws {
        // Read as a date, "\t86400" would be 1970-01-02 and the 5 minutes a 57-year wait.
        let wait = try #require(hint(withDateHeader: header))
        #expect(wait > .seconds(290) && wait <= .seconds(300))
    }

    @Test func aPaddedDateHeaderIsStillADate() throws {
        let wait = try #require(hint(withDateHeader: "\t" + Self.httpDate(Date() + 60) + " "))
        #expect(wait > .seconds(238) && wait < .seconds(242))
    }

    @Test func unauthorisedRequiresLogout() {
        let url = "http://stub.test/private"
        StubURLProtocol.set(.init(status: 401), for: url)
        #expect(check(url).error?.category == .requiresLogout)
    }

    @Test func aMissingFieldIsADecodingErrorWithItsPath() {
        let url = "http://stub.test/illegal"
        StubURLProtocol.set(.init(status: 200, body: Data(#"{"available": true}"#.utf8)), for: url)
        let error = check(url).error
        guard case .decoding = error else { Issue.record("expected a decoding error"); return }
        #expect(error?.description.contains("keyNotFound isAvailable") == true)
        #expect(error?.errorDescription?.contains("update the app") == true)
        #expect(error?.category == .nonRetryable)
    }

    @Test func transportFailuresAreRetryable() {
        let url = "http://stub.test/down"
        StubURLProtocol.set(.init(error: URLError(.cannotConnectToHost)), for: url)
        let error = check(url).error
        guard case .transport(let urlError, _) = error else { Issue.record("expected a transport error"); return }
        #expect(urlError.code == .cannotConnectToHost)
        #expect(error?.category == .retryable)
    }

    @Test func anInvalidURLFailsWithoutARequest() {
        let recorder = TestSubscriber<URLSession.RequestPublisher.Output, NetworkError>()
        session.requestPublisher(for: "not a url").subscribe(recorder)
        guard case .failure(.invalidRequest) = recorder.completion else { Issue.record("expected invalidRequest"); return }
    }

    @Test func lazyAndOneRequestPerSubscription() {
        let url = "http://stub.test/count"
        StubURLProtocol.set(.init(status: 500), for: url)
        let publisher = session.requestPublisher(for: url)
        let waiting = TestSubscriber<URLSession.RequestPublisher.Output, NetworkError>(initialDemand: nil)
        publisher.subscribe(waiting)
        #expect(StubURLProtocol.requests(to: url) == 0)
        waiting.cancel()

        let done = DispatchSemaphore(value: 0)
        let cancellable = publisher.validateStatus()
            .retry(2, backoff: .immediate, scheduler: DispatchQueue(label: "retry"))
            .sink(receiveCompletion: { _ in done.signal() }, receiveValue: { _ in })
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(StubURLProtocol.requests(to: url) == 3)
        cancellable.cancel()
    }
}

@Suite("Parsers of what servers send take any bytes")
struct UntrustedInputTests {
    @Test func problemDetailsTakeAnyBytes() {
        var generator = SeededRandomNumberGenerator(seed: 22)
        let pieces = [
            "{", "}", "[", "]", "\"", ":", ",", "\"errors\"", "\"error\"", "\"message\"", "\"status\"", "1e999", "-0", "null",
            "true", "\"\\u0000\"", "\u{FFFF}", "\"detail\"", "\"invalid-params\"", "9999999999999999999999",
        ]
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...40, using: &generator) { text += pieces.randomElement(using: &generator)! }
            _ = ProblemDetails.parse(Data(text.utf8))
            let bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = ProblemDetails.parse(Data(bytes))
            _ = RateLimitHint.rateLimitField(text)
            _ = RateLimitHint.reset(text, now: Date())
        }
        #expect(ProblemDetails.parse(Data((String(repeating: "[", count: 20_000)).utf8)) == nil)
        #expect(ProblemDetails.parse(Data(#"{"status": 1e300, "message": ""}"#.utf8)) == nil)
        #expect(RateLimitHint.reset("99999999999999999999", now: Date()) == nil)
        #expect(RateLimitHint.reset(" 12 ", now: Date()) == .seconds(12))
        #expect(RateLimitHint.reset("1700000060", now: .distantFuture) == .zero)
        #expect(RateLimitHint.reset("1700000060", now: Date(timeIntervalSince1970: .nan)) == nil)
    }
}
