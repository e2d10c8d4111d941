// Building requests: base URL, path, query, JSON body and headers, as a loopback server
// receives them.
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

@Suite("Building requests")
struct APIRequestTests {
    struct NewOrder: Codable, Equatable {
        let item: String
        let count: Int
    }

    @Test func pathQueryHeadersAndJSONBodyArriveAsSent() throws {
        let server = try RecordingHTTPServer { _ in .status(201, body: "{}") }
        defer { server.stop() }
        let base = server.url("/api/v1/")
        let request = APIRequest(
            .post, "/orders/tea & cake",
            query: [
                URLQueryItem(name: "note", value: "a&b=c+d é"), URLQueryItem(name: "flag", value: nil),
            ]
        )
        .header("Authorization", "Bearer token")
        .json(NewOrder(item: "tea", count: 2))
        .idempotencyKey("k1")
        let result = outcome(of: freshSession().requestPublisher(for: request, relativeTo: base).validateStatus())
        #expect(result.error == nil)
        let received = try #require(server.requests.first)
        #expect(received.method == "POST")
        #expect(received.target == "/api/v1/orders/tea%20&%20cake?note=a%26b%3Dc%2Bd%20%C3%A9&flag")
        #expect(received.headers["authorization"] == "Bearer token")
        #expect(received.headers["content-type"] == "application/json")
        #expect(received.headers["idempotency-key"] == "\"k1\"")
        #expect(try JSONDecoder().decode(NewOrder.self, from: received.body) == NewOrder(item: "tea", count: 2))
    }

    @Test func aBaseWithoutATrailingSlashAndAPathWithoutALeadingOneAreJoined() throws {
        let base = try #require(URL(string: "https://api.example.com/v1"))
        let url = try APIRequest(.get, "users/42").urlRequest(relativeTo: base).get().url
        #expect(url?.absoluteString == "https://api.example.com/v1/users/42")
        let question = try APIRequest(.get, "what?#now").urlRequest(relativeTo: base).get().url
        #expect(question?.absoluteString == "https://api.example.com/v1/what%3F%23now")
        let percent = try APIRequest(.get, "100%").urlRequest(relativeTo: base).get().url
        #expect(percent?.absoluteString == "https://api.example.com/v1/100%25")
    }

    @Test func aBodyThatCannotBeEncodedFailsBeforeAnyIO() throws {
        let request = APIRequest(.put, "numbers").json(["x": Double.nan])
        let recorder = TestSubscriber<URLSession.RequestPublisher.Output, NetworkError>()
        freshSession().requestPublisher(for: request, relativeTo: try #require(URL(string: "http://127.0.0.1:1/")))
            .subscribe(recorder)
        guard case .failure(.invalidRequest(let reason)) = recorder.completion else {
            Issue.record("expected invalidRequest, got \(String(describing: recorder.completion))")
            return
        }
        #expect(reason.contains("encoded"))
    }

    @Test func theMethodDecidesWhetherARetryIsSafe() throws {
        let base = try #require(URL(string: "https://api.example.com/"))
        for (method, safe) in [(APIRequest.Method.get, true), (.put, true), (.delete, true), (.post, false), (.patch, false)] {
            let request = try APIRequest(method, "x").urlRequest(relativeTo: base).get()
            #expect(SentRequest(request).isSafeToRepeat == safe, "\(method.rawValue)")
        }
    }
}
#endif
