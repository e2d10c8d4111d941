import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StreamsTesting
import Synchronization

/// A URL protocol that answers from canned responses, keyed by URL, and counts requests: the
/// client stack runs for real, without a network.
final class StubURLProtocol: URLProtocol {
    struct Stub: Sendable {
        var status = 200
        var headers: [String: String] = [:]
        var body = Data()
        var error: URLError?
        /// Answers only when the test calls ``answerHeld(_:)``: the request stays in flight.
        var holds = false
    }

    private static let stubs = Locked<[String: Stub]>([:])
    private static let counts = Locked<[String: Int]>([:])
    private static let held = Locked<[(StubURLProtocol, Stub)]>([])

    static func set(_ stub: Stub, for url: String) {
        stubs.withLock { $0[url] = stub }
    }

    static func requests(to url: String) -> Int {
        counts.withLock { $0[url] ?? 0 }
    }

    /// A session whose requests all go to the stubs.
    static func session() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self]
        return URLSession(configuration: configuration)
    }

    override class func canInit(with request: URLRequest) -> Bool { true }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    /// Answers the requests to `url` held so far, from the calling thread.
    static func answerHeld(_ url: String) {
        let answering = held.withLock { held in
            defer { held.removeAll { $0.0.request.url?.absoluteString == url } }
            return held.filter { $0.0.request.url?.absoluteString == url }
        }
        for (stubProtocol, stub) in answering { stubProtocol.answer(stub) }
    }

    override func startLoading() {
        let url = request.url!.absoluteString
        Self.counts.withLock { $0[url, default: 0] += 1 }
        let stub = Self.stubs.withLock { $0[url] } ?? Stub(status: 404)
        if stub.holds {
            // Held once: a suspended task started again is still one request to answer.
            Self.held.withLock { held in
                if !held.contains(where: { $0.0 === self }) { held.append((self, stub)) }
            }
        } else {
            answer(stub)
        }
    }

    private func answer(_ stub: Stub) {
        if let error = stub.error {
            client?.urlProtocol(self, didFailWithError: error)
            return
        }
        let response = HTTPURLResponse(
            url: request.url!, statusCode: stub.status, httpVersion: "HTTP/1.1", headerFields: stub.headers)!
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: stub.body)
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}
