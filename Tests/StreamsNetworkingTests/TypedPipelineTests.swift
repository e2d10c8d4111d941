// The whole pipeline keeps NetworkError, keeps the response's metadata, and presents its
// errors through StreamsRecovery with no code in the app.
#if canImport(Glibc)
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsDecoding
import StreamsNetworking
import StreamsNetworkingTestSupport
import StreamsRecovery
import StreamsTesting
import Testing
import StreamsResilience

@Suite("One typed pipeline over a loopback server")
struct TypedPipelineTests {
    struct Feed: Decodable, Equatable {
        @Resilient var items: [Int]
    }

    @Test func aSuccessKeepsItsStatusAndHeadersThroughValidationAndDecoding() throws {
        let server = try RecordingHTTPServer { _ in
            .status(200, ["ETag": "\"v7\"", "Link": "</items?page=2>; rel=\"next\""], body: #"{"items":[1,2]}"#)
        }
        defer { server.stop() }
        let pipeline: AnyPublisher<NetworkResponse<Feed>, NetworkError> = freshSession()
            .requestPublisher(for: server.url("/items"))
            .validateResponse()
            .decode(type: Feed.self, decoder: JSONDecoder())
        let page = try #require(outcome(of: pipeline).values.first)
        #expect(page.value.items == [1, 2])
        #expect(page.status == 200)
        #expect(page.header("etag") == "\"v7\"")
        #expect(page.header("Link") == "</items?page=2>; rel=\"next\"")
        #expect(page.request == SentRequest(method: "GET"))
    }

    @Test func resilientDecodingKeepsNetworkErrorAndReportsWhatItRecoveredFrom() throws {
        let server = try RecordingHTTPServer { request in
            request.target == "/bad" ? .status(200, body: "not json") : .status(200, body: #"{"items":[1,"two",3]}"#)
        }
        defer { server.stop() }
        let reports = Locked(0)
        func feed(_ path: String) -> AnyPublisher<Feed, NetworkError> {
            freshSession().requestPublisher(for: server.url(path))
                .validateStatus()
                .decode(type: Feed.self, decoder: JSONDecoder()) { _ in reports.withLock { $0 += 1 } }
                .retry(2, backoff: .immediate, scheduler: DispatchQueue(label: "retries"))
                .eraseToAnyPublisher()
        }
        // Without a type written down, the overload that keeps NetworkError is the one chosen.
        let inferred = freshSession().requestPublisher(for: server.url("/partly")).validateStatus()
            .decode(type: Feed.self, decoder: JSONDecoder()) { _ in }
        #expect(type(of: inferred) == AnyPublisher<Feed, NetworkError>.self)
        #expect(outcome(of: feed("/partly")).values.map(\.items) == [[1, 3]])
        #expect(reports.withLock { $0 } == 1)
        let failure = outcome(of: feed("/bad")).error
        guard case .decoding = failure else {
            Issue.record("expected a decoding error, got \(String(describing: failure))"); return
        }
        #expect(server.requests.count == 2)  // a decoding error is not retried
        let withMetadata: AnyPublisher<NetworkResponse<Feed>, NetworkError> = freshSession()
            .requestPublisher(for: server.url("/partly")).validateResponse()
            .decode(type: Feed.self, decoder: JSONDecoder()) { _ in }
        #expect(outcome(of: withMetadata).values.first?.value.items == [1, 3])
    }

    struct Presented: Sendable {
        let title: String
        let message: String
        let source: ErrorSource
        let options: [String]
    }

    /// What StreamsRecovery's default handler shows for the failure of a GET answered with
    /// `status` and `body`, through `recover(through:)`.
    static func presentation(_ status: Int, body: String = "") throws -> Presented? {
        let server = try RecordingHTTPServer { _ in .status(status, body: body) }
        defer { server.stop() }
        let shown = Locked<Presented?>(nil)
        let result = outcome(
            of: freshSession().requestPublisher(for: server.url())
                .validateStatus()
                .decode(type: Feed.self, decoder: JSONDecoder())
                .recover(through: ErrorHandlerChain()) { presentation in
                    shown.withLock {
                        $0 = Presented(
                            title: presentation.title, message: presentation.message, source: presentation.source,
                            options: presentation.options.map(\.title))
                    }
                    return Just(RecoveryOption.ok())
                })
        #expect(result.error != nil)
        return shown.withLock { $0 }
    }

    @Test func theDefaultHandlerPresentsEachCaseWithNoCodeInTheApp() throws {
        let notFound = try #require(try Self.presentation(404))
        #expect(notFound.title == "Not Found")
        #expect(notFound.message == "What the app asked for could not be found.")
        #expect(notFound.source == .externalSystemBehavedUnexpectedly)
        #expect(notFound.options == ["OK"])

        let invalid = try #require(try Self.presentation(422, body: #"{"errors":{"name":"is taken"}}"#))
        #expect(invalid.title == "Invalid User Input" && invalid.source == .invalidUserInput)

        let broken = try #require(try Self.presentation(200, body: "<html>"))
        #expect(broken.title == "Unexpected Response")
        #expect(broken.message.contains("update the app"))

        let failing = try #require(try Self.presentation(500))
        #expect(failing.title == "Server Error")
        #expect(failing.message == "The server had a problem. Please try again later.")
        #expect(failing.options == ["Try Again", "Cancel"])

        // A 401 logs out without asking (the default logout policy): nothing is presented, and
        // the presentation the handler would show has "Log Out" as its automatic choice.
        #expect(try Self.presentation(401) == nil)
        let signedOut = DefaultErrorHandler().defaultPresentation(for: NetworkError(status: HTTPErrorResponse(status: 401)))
        #expect(signedOut.title == "Signed Out" && signedOut.options.map(\.title) == ["Log Out"])
        #expect(signedOut.automaticChoice?.title == "Log Out")
        for presented in [notFound, invalid, broken, failing] {
            #expect(presented.title != "Something Went Wrong")
        }
    }
}
#endif
