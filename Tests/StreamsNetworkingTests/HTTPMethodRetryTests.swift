// Which failures the default retry treats as safe to send again, by method and
// Idempotency-Key. The same rules against a loopback server, on every transport, are in the
// transport suite (`MethodRetryChecks`).
#if canImport(Glibc)
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsNetworking
import StreamsTesting
import Testing

@Suite("HTTP methods and the default retry")
struct HTTPMethodRetryTests {
    @Test func theKeyStaysTheSameAndIsQuoted() {
        let request = URLRequest(url: URL(string: "http://example.com/")!).addingIdempotencyKey()
        let key = request.value(forHTTPHeaderField: "Idempotency-Key") ?? ""
        #expect(key.hasPrefix("\"") && key.hasSuffix("\"") && key.count == 38)
        #expect(SentRequest(request).hasIdempotencyKey)
    }

    @Test(arguments: [
        (URLError.Code.cannotConnectToHost, true), (.cannotFindHost, true), (.dnsLookupFailed, true),
        (.notConnectedToInternet, true), (.timedOut, false), (.networkConnectionLost, false), (.badServerResponse, false),
    ])
    func aTransportFailureIsRetriedForAPostOnlyIfNothingWasSent(_ code: URLError.Code, _ retried: Bool) {
        let post = NetworkError.transport(URLError(code), request: SentRequest(method: "post"))
        #expect(post.category == (retried ? .retryable : .nonRetryable))
        let keyed = NetworkError.transport(URLError(code), request: SentRequest(method: "POST", hasIdempotencyKey: true))
        #expect(keyed.category == .retryable)
        #expect(NetworkError.transport(URLError(code)).category == .retryable)
    }

    @Test func aRequestDescribedByItsKeysValueHasAKeyOnlyIfTheValueIsNotEmpty() {
        #expect(!SentRequest(method: "post", idempotencyKey: nil).isSafeToRepeat)
        #expect(!SentRequest(method: "POST", idempotencyKey: "").hasIdempotencyKey)
        let keyed = SentRequest(method: "POST", idempotencyKey: "\"8e03978e\"")
        #expect(keyed == SentRequest(method: "POST", hasIdempotencyKey: true))
        #expect(keyed.isSafeToRepeat)
        #expect(SentRequest(method: "GET", idempotencyKey: nil).isSafeToRepeat)
    }
}
#endif
