// Requests given up on, against a loopback server that drips its body: the connection must
// close, not stream to its end, on `URLSession.shared` and on sessions with a URL cache too.
#if canImport(Glibc)
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsNetworking
import StreamsNetworkingTestSupport
import StreamsResilience
import StreamsTesting
import Testing

@Suite("Cancelling a request on the wire")
struct WireCancellationTests {
    /// The sessions a request is given up on: both have a URL cache.
    enum Session: String, CaseIterable, CustomTestStringConvertible {
        case shared
        case defaultConfiguration

        /// `URLSession.shared`, or a new session of the default configuration.
        func makeSession() -> URLSession {
            switch self {
            case .shared: .shared
            case .defaultConfiguration: URLSession(configuration: .default)
            }
        }

        var testDescription: String { rawValue }
    }

    /// A bound on every wait below, not a measure of speed: a loaded 2-core machine once took
    /// over 20 s to end a task whose server had closed it.
    static let bound = Duration.seconds(60)

    static func wait(until condition: () -> Bool) -> Bool {
        CancellationTests.wait(upTo: bound, until: condition)
    }

    /// Subscribes `probe` to a request for `url` on `session`, through `dataTaskPublisher` or
    /// `requestPublisher`, its output mapped away.
    static func subscribe(_ probe: Probe<Void, Never>, to url: URL, on session: URLSession, dataTask: Bool) {
        if dataTask {
            session.dataTaskPublisher(for: url).map { _ in }.replaceError(with: ()).subscribe(probe)
        } else {
            session.requestPublisher(for: url).map { _ in }.replaceError(with: ()).subscribe(probe)
        }
    }

    @Test(arguments: Session.allCases, [false, true])
    func aCancelledSubscriptionClosesItsConnection(on session: Session, dataTask: Bool) throws {
        let server = try DrippingServer()
        defer { server.stop() }
        let events = Locked(0)
        let probe = Probe<Void, Never>(events: events)
        Self.subscribe(probe, to: server.url(), on: session.makeSession(), dataTask: dataTask)
        // Streaming: the head and some of the body have been sent.
        try #require(Self.wait { server.bytesDripped >= 2 })
        probe.cancel()
        #expect(Self.wait { server.closedByClient == 1 }, "the request still streams after its cancel: \(server)")
        #expect(server.connections == 1)
        #expect(events.withLock { $0 } == 0)
    }

    /// Cancelled while the server has not answered yet: the cancel waits for the response head
    /// (before it, the task may still be asking the URL cache), then closes the connection.
    @Test(arguments: Session.allCases, [false, true])
    func aSubscriptionCancelledBeforeTheResponseClosesItsConnectionWhenTheHeadArrives(
        on session: Session, dataTask: Bool
    ) throws {
        let server = try DrippingServer(headDelay: .milliseconds(500))
        defer { server.stop() }
        let events = Locked(0)
        let probe = Probe<Void, Never>(events: events)
        Self.subscribe(probe, to: server.url(), on: session.makeSession(), dataTask: dataTask)
        try #require(Self.wait { server.connections == 1 })
        probe.cancel()
        #expect(Self.wait { server.closedByClient == 1 }, "the request still streams after its cancel: \(server)")
        #expect(events.withLock { $0 } == 0)
    }

    /// The issue's search field: each keystroke under `switchToLatest` gives up the check in
    /// flight, whose connection must close.
    @Test(arguments: Session.allCases)
    func switchToLatestClosesTheConnectionOfTheRequestItLeaves(on session: Session) throws {
        let server = try DrippingServer()
        defer { server.stop() }
        let urlSession = session.makeSession()
        let names = PassthroughSubject<String, Never>()
        let cancellable =
            names
            .map { urlSession.requestPublisher(for: server.url(path: "/isUserNameAvailable?userName=\($0)")).asResult() }
            .switchToLatest()
            .sink { _ in }
        defer { cancellable.cancel() }
        names.send("al")
        try #require(Self.wait { server.bytesDripped >= 2 })
        names.send("alice")
        #expect(Self.wait { server.closedByClient == 1 }, "the first check still streams after the keystroke: \(server)")
        try #require(Self.wait { server.connections == 2 && server.headsSent == 2 })
        cancellable.cancel()
        #expect(Self.wait { server.closedByClient == 2 }, "the last check still streams after its cancel: \(server)")
    }

    /// A resilient request whose every attempt outlasts its attempt timeout: each attempt given
    /// up must close its connection, not stream on beside the next one.
    @Test(arguments: Session.allCases)
    func anAttemptTimedOutClosesItsConnection(on session: Session) throws {
        let server = try DrippingServer()
        defer { server.stop() }
        let policy = ResiliencePolicy(retry: .init(maxRetries: 2, backoff: .immediate), attemptTimeout: .milliseconds(300))
        let failure = Locked<ResilienceError<NetworkError>?>(nil)
        let request = URLRequest(url: server.url())
        let cancellable = session.makeSession().requestPublisher(for: request)
            .resilient(ResiliencePipeline(policy, name: "drip"), for: request, scheduler: DispatchQueue(label: "attempts"))
            .sink(
                receiveCompletion: { completion in
                    if case .failure(let error) = completion { failure.withLock { $0 = error } }
                },
                receiveValue: { _ in })
        defer { cancellable.cancel() }
        try #require(Self.wait { failure.withLock { $0 } != nil })
        #expect(server.connections == 3)
        #expect(Self.wait { server.closedByClient == 3 }, "\(server)")
    }

    /// A hedged request whose first attempt streams on while the second is answered at once:
    /// the losing attempt must close its connection.
    @Test(arguments: Session.allCases)
    func aHedgesLosingAttemptClosesItsConnection(on session: Session) throws {
        let server = try DrippingServer(answersAtOnceFrom: 2)
        defer { server.stop() }
        let policy = ResiliencePolicy(hedging: Hedging(maxAttempts: 2, delay: .milliseconds(100)))
        let statuses = Locked<[Int]>([])
        let request = URLRequest(url: server.url())
        let cancellable = session.makeSession().requestPublisher(for: request)
            .resilient(ResiliencePipeline(policy, name: "hedged"), for: request, scheduler: DispatchQueue(label: "hedges"))
            .sink(receiveCompletion: { _ in }, receiveValue: { response in statuses.withLock { $0.append(response.status) } })
        defer { cancellable.cancel() }
        try #require(Self.wait { statuses.withLock { $0 } == [200] })
        #expect(server.connections == 2)
        #expect(Self.wait { server.closedByClient == 1 }, "the losing attempt still streams: \(server)")
    }

    /// Cancels 2,000 requests on each caching session, 0 to 5 ms after each starts, to a server
    /// that sends the head at once and then a 3-byte body a millisecond or so apart: the cancels
    /// land before the head (and wait for it), while the body streams and as the task ends, on
    /// the path that crashed when a cancel could land during the cache lookup. Prints how many
    /// connections the client closed.
    static func cancelStreamingBatches() {
        for session in Session.allCases {
            for dataTask in [false, true] {
                guard let server = try? DrippingServer(bodyLength: 3, interval: .milliseconds(1)) else { exit(EXIT_FAILURE) }
                let urlSession = session.makeSession()
                let label = "\(dataTask ? "dataTaskPublisher" : "requestPublisher"), \(session.rawValue), streaming"
                if dataTask {
                    CancellationTests.cancelBatch(
                        label, on: urlSession, to: server.url(), cancellingWithin: .milliseconds(5)
                    ) {
                        urlSession.dataTaskPublisher(for: $0)
                    }
                } else {
                    CancellationTests.cancelBatch(
                        label, on: urlSession, to: server.url(), cancellingWithin: .milliseconds(5)
                    ) {
                        urlSession.requestPublisher(for: $0)
                    }
                }
                print("\(label): connections closed by the client: \(server.closedByClient) of \(server.connections)")
                server.stop()
            }
        }
    }

    @Test func cancellingStreamingRequestsOnCachingSessionsNeverCrashes() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]) {
            WireCancellationTests.cancelStreamingBatches()
        }
        CancellationTests.check(result)
    }
}
#endif
