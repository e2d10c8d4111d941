#if canImport(Glibc)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsNetworking
import StreamsTesting
import Testing
import StreamsResilience

/// What `validateStatus()` makes of what a server sends over the transport: each error body
/// shape, each status of the taxonomy, the rate-limit headers, and a 50 MB error page.
enum ErrorBodyChecks {
    static let all = [
        TransportCheck("eachErrorBodyShapeIsRead", shapes),
        TransportCheck("eachStatusHasItsCaseCategoryAndWords", statuses),
        TransportCheck("rateLimitHeadersAreHintsOn429And503Only", rateLimitHints),
        TransportCheck("aFiftyMegabyteErrorPageGivesItsStatusAndIsNeitherParsedNorKept", fiftyMegabytePage),
    ]

    /// The failure of a GET over `transport` answered with `status`, `headers` and `body`.
    static func failure(
        on transport: TransportUnderTest, _ status: Int, _ headers: [String: String] = [:], body: String = "",
        errorBody: ErrorBodyParser? = nil
    ) async throws -> NetworkError? {
        let server = try RecordingHTTPServer { _ in .status(status, headers, body: body) }
        defer { server.stop() }
        var request = URLRequest(url: server.url("/thing"))
        request.timeoutInterval = 30
        return await TransportSuite.failure(of: transport.publisher(for: request).validateStatus(errorBody: errorBody))
    }

    /// An error body and what the library reads in it.
    struct Shape: Sendable {
        let name: String
        let body: String
        let expected: ProblemDetails?
    }

    static let bodyShapes: [Shape] = [
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
        Shape(name: "message", body: #"{"message":"Name is taken"}"#, expected: ProblemDetails(detail: "Name is taken")),
        Shape(name: "error string", body: #"{"error":"Bad things"}"#, expected: ProblemDetails(title: "Bad things")),
        Shape(
            name: "error object with message and errors",
            body: #"{"error":{"code":422,"message":"Invalid input","errors":{"email":["is invalid","is taken"]}}}"#,
            expected: ProblemDetails(
                status: 422, detail: "Invalid input",
                fieldErrors: [.init(field: "email", message: "is invalid"), .init(field: "email", message: "is taken")])),
        Shape(name: "reason", body: #"{"error":true,"reason":"emptyName"}"#, expected: ProblemDetails(detail: "emptyName")),
        Shape(name: "HTML", body: "<html><body>Oops</body></html>", expected: nil),
        Shape(name: "empty", body: "", expected: nil),
        Shape(name: "JSON of another shape", body: #"{"ok":false,"n":[1,2]}"#, expected: nil),
    ]

    static func shapes(_ transport: TransportUnderTest) async throws {
        for shape in bodyShapes {
            let error = try await failure(
                on: transport, 422, ["Content-Type": "application/problem+json"], body: shape.body)
            guard case .validation(let failure) = error else {
                Issue.record("\(shape.name): expected a validation error, got \(String(describing: error))")
                continue
            }
            #expect(failure.problem == shape.expected, "\(shape.name)")
            #expect(failure.status == 422, "\(shape.name)")
        }
        // The caller's parser reads the shapes the library does not know.
        let plain = try await failure(on: transport, 400, body: "plain words") { body, response in
            response.statusCode == 400 ? ProblemDetails(detail: String(decoding: body, as: UTF8.self)) : nil
        }
        #expect(plain?.errorResponse?.reason == "plain words")
    }

    /// A status, and the case, category and title the library gives it.
    struct StatusCase: Sendable {
        let status: Int
        let name: String
        let category: ErrorCategory
        let title: String
    }

    static let statusCases: [StatusCase] = [
        .init(status: 400, name: "validation", category: .nonRetryable, title: "Invalid User Input"),
        .init(status: 422, name: "validation", category: .nonRetryable, title: "Invalid User Input"),
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
    static func caseName(_ error: NetworkError) -> String {
        Mirror(reflecting: error).children.first?.label ?? "\(error)"
    }

    static func statuses(_ transport: TransportUnderTest) async throws {
        for expected in statusCases {
            guard let error = try await failure(on: transport, expected.status) else {
                Issue.record("\(expected.status): expected a failure")
                continue
            }
            #expect(caseName(error) == expected.name, "\(expected.status)")
            #expect(error.status == expected.status)
            #expect(error.category == expected.category, "\(expected.status)")
            #expect(error.presentationTitle == expected.title, "\(expected.status)")
            #expect(error.errorDescription == error.presentationMessage)
            #expect(!error.presentationMessage.contains("\(expected.status)"))
            #expect(error.request == SentRequest(method: "GET"))
        }
    }

    static let serverDate = "Tue, 14 Nov 2023 22:13:20 GMT"
    /// `serverDate` in seconds since 1970.
    static let serverEpoch = 1_700_000_000

    static func rateLimitHints(_ transport: TransportUnderTest) async throws {
        for status in [429, 503] {
            func hint(_ headers: [String: String]) async throws -> Duration? {
                try await failure(on: transport, status, headers)?.retryAfter
            }
            #expect(try await hint(["RateLimit-Reset": "30"]) == .seconds(30))
            #expect(try await hint(["X-RateLimit-Reset": "45"]) == .seconds(45))
            // An instant, measured against the server's own Date.
            #expect(try await hint(["Date": serverDate, "X-RateLimit-Reset": "\(serverEpoch + 90)"]) == .seconds(90))
            #expect(try await hint(["Date": serverDate, "X-RateLimit-Reset": "\(serverEpoch - 90)"]) == .zero)
            #expect(try await hint(["RateLimit": #""default";r=0;t=20"#]) == .seconds(20))
            #expect(try await hint(["RateLimit": #""day";r=5;t=3600, "minute";r=0;t=40"#]) == .seconds(40))
            #expect(try await hint(["RateLimit": "limit=100, remaining=0, reset=15"]) == .seconds(15))
            // Retry-After wins over the rate-limit headers, shorter or longer; they are the fallback.
            #expect(try await hint(["Retry-After": "10", "RateLimit-Reset": "25"]) == .seconds(10))
            #expect(try await hint(["Retry-After": "50", "RateLimit-Reset": "25"]) == .seconds(50))
            #expect(try await hint(["Retry-After": "1", "RateLimit": #""default";r=0;t=30"#]) == .seconds(1))
            #expect(try await hint(["Retry-After": "never", "RateLimit-Reset": "25"]) == .seconds(25))
            #expect(try await hint(["RateLimit-Reset": "soon", "RateLimit": "garbage;;=,"]) == nil)
        }
        // On other statuses only Retry-After is a hint.
        #expect(try await failure(on: transport, 500, ["RateLimit-Reset": "30"])?.retryAfter == nil)
        #expect(try await failure(on: transport, 500, ["Retry-After": "30"])?.retryAfter == .seconds(30))
    }

    static func fiftyMegabytePage(_ transport: TransportUnderTest) async throws {
        // A hostile or broken server answers with a 50 MB page: the status still arrives (a 500,
        // worth retrying), the caller's parser is never asked, the library's never runs, and the
        // error holds no byte of the body.
        let page = Data(count: 50 * 1_048_576)
        let server = try RecordingHTTPServer { _ in .respond(status: 500, headers: ["Content-Type": "text/html"], body: page) }
        defer { server.stop() }
        let parsed = Locked<[Int]>([])
        let countingParser: ErrorBodyParser = { body, _ in
            parsed.withLock { $0.append(body.count) }
            return nil
        }
        var request = URLRequest(url: server.url("/page"))
        request.timeoutInterval = 60
        let error = await TransportSuite.failure(
            of: transport.publisher(for: request).validateStatus(errorBody: countingParser))
        guard case .server(let failure) = error else {
            Issue.record("expected a server error, got \(String(describing: error))")
            return
        }
        #expect(failure.status == 500)
        #expect(error?.category == .retryable)
        #expect(parsed.withLock { $0 }.isEmpty)
        #expect(failure.problem == nil)
        var dumped = ""
        dump(failure, to: &dumped)
        #expect(dumped.utf8.count < 2_048)
        #expect(String(describing: error).utf8.count < 512)
    }
}
#endif
