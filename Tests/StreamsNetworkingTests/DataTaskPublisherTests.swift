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

    /// Whether `value`, a reflected child, is a nil Optional.
    static func isNil(_ value: Any) -> Bool {
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }

    /// The tasks `session` has not finished yet.
    static func tasks(of session: URLSession) async -> [URLSessionTask] {
        await withCheckedContinuation { continuation in
            session.getAllTasks { continuation.resume(returning: $0) }
        }
    }

    /// The reflected children of `subscription`, by label, in order.
    static func children(of subscription: (any Subscription)?) -> [(label: String, value: Any)] {
        guard let subscription else { return [] }
        return Mirror(reflecting: subscription).children.map { ($0.label ?? "", $0.value) }
    }

    @Test func makesTheTaskOnTheFirstRequestAndResumesItOnEveryRequest() throws {
        let session = CannedSession(outcome: nil)
        let subscriber = TestSubscriber<URLSession.DataTaskPublisher.Output, URLError>(initialDemand: nil)
        session.dataTaskPublisher(for: try #require(URL(string: "http://stub.test/resumes"))).subscribe(subscriber)
        #expect(session.tasks.isEmpty)
        subscriber.request(.max(1))
        #expect(session.tasks.count == 1)
        #expect(session.tasks.first?.resumeCount == 1)
        subscriber.request(.max(2))
        subscriber.request(.unlimited)
        #expect(session.tasks.count == 1)
        #expect(session.tasks.first?.resumeCount == 3)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(session.tasks.first?.resumeCount == 3)
        #expect(subscriber.events.count == 1)  // the subscription only
    }

    @Test func resumingAgainRestartsASuspendedTask() async throws {
        // A real task: suspended by someone else, it runs again on the next request.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self]
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        let url = "http://stub.test/data-task-held"
        StubURLProtocol.set(.init(holds: true), for: url)
        let subscriber = TestSubscriber<URLSession.DataTaskPublisher.Output, URLError>(initialDemand: nil)
        session.dataTaskPublisher(for: try #require(URL(string: url))).subscribe(subscriber)
        subscriber.request(.max(1))
        let task = try #require(await Self.tasks(of: session).first as? URLSessionDataTask)
        #expect(task.state == .running)
        task.suspend()
        #expect(task.state == .suspended)
        subscriber.request(.max(1))
        #expect(task.state == .running)
        subscriber.cancel()
        StubURLProtocol.answerHeld(url)
    }

    @Test(arguments: [(Data?.none, "no data"), (Data("x".utf8), "data only")])
    func aTaskThatEndsWithoutAResponseFailsWithUnknown(data: Data?, _ what: String) throws {
        let session = CannedSession(outcome: (data: data, response: nil, error: nil))
        let subscriber = TestSubscriber<URLSession.DataTaskPublisher.Output, URLError>()
        session.dataTaskPublisher(for: try #require(URL(string: "http://stub.test/nothing"))).subscribe(subscriber)
        #expect(subscriber.values.isEmpty, "\(what)")
        #expect(subscriber.completion == .failure(URLError(.unknown)), "\(what)")
    }

    @Test func aResponseWithoutDataSendsAnEmptyBody() throws {
        let url = try #require(URL(string: "http://stub.test/empty"))
        let response = URLResponse(url: url, mimeType: nil, expectedContentLength: 0, textEncodingName: nil)
        let session = CannedSession(outcome: (data: nil, response: response, error: nil))
        let subscriber = TestSubscriber<URLSession.DataTaskPublisher.Output, URLError>()
        session.dataTaskPublisher(for: url).subscribe(subscriber)
        #expect(subscriber.values.map(\.data) == [Data()])
        #expect(subscriber.completion == .finished)
    }

    @Test func describesAndReflectsItselfAsCombinesSubscriptionDoes() throws {
        let session = CannedSession(outcome: nil)
        let publisher = session.dataTaskPublisher(for: try #require(URL(string: "http://stub.test/mirror")))
        let subscriber = TestSubscriber<URLSession.DataTaskPublisher.Output, URLError>(initialDemand: nil)
        publisher.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "DataTaskPublisher")
        let playground = (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription
        #expect(playground as? String == "DataTaskPublisher")
        #expect(subscription is any CustomReflectable)

        var children = Self.children(of: subscription)
        #expect(children.map(\.label) == ["task", "downstream", "parent", "demand"])
        #expect(Self.isNil(children[0].value))
        #expect(children[1].value as? TestSubscriber<URLSession.DataTaskPublisher.Output, URLError> === subscriber)
        let parent = children[2].value as? URLSession.DataTaskPublisher?
        #expect(parent??.request == publisher.request && parent??.session === session)
        #expect(children[3].value as? Subscribers.Demand == .max(0))

        subscriber.request(.max(2))
        children = Self.children(of: subscription)
        // The task shows as its redacted request rather than as Foundation's object, whose
        // mirror prints the request's headers.
        #expect((children[0].value as? String)?.hasPrefix("Task: ") == true)
        #expect(children[3].value as? Subscribers.Demand == .max(2))

        subscriber.cancel()
        children = Self.children(of: subscription)
        #expect(children.map(\.label) == ["task", "downstream", "parent", "demand"])
        #expect(children.prefix(3).allSatisfy { Self.isNil($0.value) })
        #expect(children[3].value as? Subscribers.Demand == .max(0))
    }

    @Test func aRequestForNothingTraps() async {
        let trap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<URLSession.DataTaskPublisher.Output, URLError>(initialDemand: nil)
            CannedSession(outcome: nil).dataTaskPublisher(for: URL(string: "http://stub.test/none")!).subscribe(subscriber)
            subscriber.request(.none)
        }
        #if DEBUG
        let output = String(decoding: trap?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("API Violation: demand must not be zero"), "standard error: \(output)")
        #endif
    }
}
#endif
