// Imports `Foundation` and `StreamsNetworking` (and the test scheduler), as ported Combine code
// does: `StreamsNetworking` brings `Streams`, and `FoundationNetworking` where it exists, along.
#if !canImport(Combine)
import Dispatch
import Foundation
import StreamsNetworking
import StreamsTesting
import Testing

@Suite("URLSession.dataTaskPublisher, with Combine's shape")
struct DataTaskPublisherTests {
    let session = StubURLProtocol.session()

    /// Runs `publisher` to completion.
    func run(_ publisher: URLSession.DataTaskPublisher) -> (values: [(data: Data, response: URLResponse)], error: URLError?) {
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<(values: [(data: Data, response: URLResponse)], error: URLError?)>(([], nil))
        let cancellable = publisher.sink(
            receiveCompletion: { completion in
                if case .failure(let error) = completion { outcome.withLock { $0.error = error } }
                done.signal()
            },
            receiveValue: { value in outcome.withLock { $0.values.append(value) } })
        #expect(done.wait(timeout: .now() + 30) == .success)
        cancellable.cancel()
        return outcome.withLock { $0 }
    }

    @Test func sendsTheBodyAndTheResponseOfAnyStatus() throws {
        let url = "http://stub.test/data-task"
        StubURLProtocol.set(.init(status: 404, body: Data("missing".utf8)), for: url)
        let publisher: URLSession.DataTaskPublisher = session.dataTaskPublisher(for: try #require(URL(string: url)))
        let outcome = run(publisher)
        #expect(outcome.error == nil)
        #expect(outcome.values.count == 1)
        #expect(outcome.values.first.map { String(decoding: $0.data, as: UTF8.self) } == "missing")
        #expect((outcome.values.first?.response as? HTTPURLResponse)?.statusCode == 404)
    }

    @Test func failsWithTheURLError() throws {
        let url = "http://stub.test/data-task-down"
        StubURLProtocol.set(.init(error: URLError(.cannotConnectToHost)), for: url)
        let request = URLRequest(url: try #require(URL(string: url)))
        let publisher = session.dataTaskPublisher(for: request)
        #expect(publisher.request.url?.absoluteString == url && publisher.session === session)
        #expect(run(publisher).error?.code == .cannotConnectToHost)
    }

    @Test func startsOnTheFirstRequestOncePerSubscription() throws {
        let url = "http://stub.test/data-task-count"
        StubURLProtocol.set(.init(body: Data("x".utf8)), for: url)
        let publisher = session.dataTaskPublisher(for: try #require(URL(string: url)))
        let waiting = TestSubscriber<URLSession.DataTaskPublisher.Output, URLError>(initialDemand: nil)
        publisher.subscribe(waiting)
        #expect(StubURLProtocol.requests(to: url) == 0)
        waiting.cancel()
        _ = run(publisher)
        _ = run(publisher)
        #expect(StubURLProtocol.requests(to: url) == 2)
    }
}
#endif
