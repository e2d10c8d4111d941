// Cancelling requests in flight, against a loopback server: what a search field under
// `switchToLatest` does on every keystroke.
#if canImport(Glibc)
import Dispatch
import Foundation
import Glibc
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsNetworking
import StreamsNetworkingTestSupport
import StreamsTesting
import Testing

/// A subscriber that asks for everything, counts what it is sent and lets the test see when it
/// is released, and when the subscription it was given is.
final class Probe<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    let events: Locked<Int>
    /// How many probes are alive, if counted.
    let live: Locked<Int>?
    /// Follows the subscription the probe is given, if set.
    let subscriptions: SubscriptionLifetimes?
    private let subscription = Locked<(any Subscription)?>(nil)

    init(events: Locked<Int>, live: Locked<Int>? = nil, subscriptions: SubscriptionLifetimes? = nil) {
        self.events = events
        self.live = live
        self.subscriptions = subscriptions
        live?.withLock { $0 += 1 }
    }

    deinit {
        live?.withLock { $0 -= 1 }
    }

    func receive(subscription: any Subscription) {
        subscriptions?.track(subscription)
        self.subscription.withLock { $0 = subscription }
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        events.withLock { $0 += 1 }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        events.withLock { $0 += 1 }
    }

    func cancel() {
        subscription.withLock { $0.take() }?.cancel()
    }
}

@Suite("Cancelling requests in flight")
struct CancellationTests {
    /// Requests per batch: the 2,000, fewer under ThreadSanitizer, which runs threaded
    /// code five to fifteen times slower.
    static var batchSize: Int {
        #if STREAMS_TSAN
        400
        #else
        2_000
        #endif
    }

    /// The tasks `session` has not finished yet.
    ///
    /// Only while no task can end: FoundationNetworking lists the tasks without the lock its
    /// work queue removes ended ones under, and the listing can trap if one ends meanwhile (see
    /// ``SubscriptionLifetimes``, which tells when every task has ended without asking).
    static func tasks(of session: URLSession) -> [URLSessionTask] {
        let tasks = Locked<[URLSessionTask]>([])
        let done = DispatchSemaphore(value: 0)
        session.getAllTasks { listed in
            tasks.withLock { $0 = listed }
            done.signal()
        }
        done.wait()
        return tasks.withLock { $0 }
    }

    /// Waits, sleeping a millisecond between looks, until `condition` holds; false if it still
    /// does not after `limit` (a bound on the wait, not a measure of speed: a loaded 2-core
    /// machine once took over 20 s to end a task whose server had closed it). A sleeping
    /// thread, unlike a spinning one, lets Dispatch run other work on the processor, such as
    /// the session's delivery of the task's end.
    static func wait(upTo limit: Duration = .seconds(60), until condition: () -> Bool) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while !condition() {
            guard clock.now < deadline else { return false }
            usleep(1_000)
        }
        return true
    }

    /// Whether `session` has no task left, of those whose subscriptions `subscriptions` follows
    /// or any other: safe to ask from any thread at any time, as it asks the session only once
    /// every one of those tasks has ended (and no more come).
    static func isDrained(_ session: URLSession, following subscriptions: SubscriptionLifetimes) -> Bool {
        subscriptions.allEnded && tasks(of: session).isEmpty
    }

    /// Waits until `session` has no task left of those whose subscriptions `subscriptions`
    /// follows, and returns "0", or what is left if some never end.
    static func drain(_ session: URLSession, following subscriptions: SubscriptionLifetimes) -> String {
        wait { isDrained(session, following: subscriptions) } ? "0" : "\(subscriptions.alive) tasks never ended"
    }

    /// Sends `batchSize` requests through the publishers `make` returns, cancels each one 0 to
    /// `cancellingWithin` (200 µs) after it starts, then waits until every task has ended and
    /// every subscriber has been let go; meanwhile `watchers` more threads keep asking whether
    /// the session has drained. The requests go to `url`, or to a server that answers at once.
    /// Prints what it counted; exits with a failure if tasks or subscribers remain.
    /// Run in a child process: before Streams stopped cancelling there, the batch trapped inside
    /// FoundationNetworking.
    static func cancelBatch<P: Publisher>(
        _ label: String, on session: URLSession, watchers: Int = 0, to url: URL? = nil,
        cancellingWithin window: Duration = .microseconds(200), _ make: (URL) -> P
    ) {
        let server = url == nil ? try? MisbehavingServer(.answer) : nil
        defer { server?.stop() }
        guard let url = url ?? server?.url() else { exit(EXIT_FAILURE) }
        let events = Locked(0)
        let live = Locked(0)
        let subscriptions = SubscriptionLifetimes()
        // Threads of their own: spinning on Dispatch's pool would starve the session's queues.
        // Each looks ten thousand times a second or so: often enough to list the tasks while
        // they end, were `isDrained` to list them then, without taking the processors from the
        // session's own work (spinning, three watchers tripled the test's time on two cores).
        let watching = Locked(true)
        let watched = DispatchSemaphore(value: 0)
        for _ in 0..<watchers {
            Thread.detachNewThread {
                while watching.withLock({ $0 }) {
                    _ = isDrained(session, following: subscriptions)
                    usleep(100)
                }
                watched.signal()
            }
        }
        defer {
            watching.withLock { $0 = false }
            for _ in 0..<watchers { watched.wait() }
        }
        let clock = ContinuousClock()
        for _ in 0..<batchSize {
            let probe = Probe<P.Output, P.Failure>(events: events, live: live, subscriptions: subscriptions)
            make(url).subscribe(probe)
            // A busy wait of 0 to `window`: the cancel lands anywhere in the task's life.
            let until = clock.now + .nanoseconds(Int.random(in: 0...Int(window / .nanoseconds(1))))
            while clock.now < until {}
            probe.cancel()
        }
        subscriptions.stopTracking()
        let runningAfterBatch = subscriptions.alive
        let remaining = drain(session, following: subscriptions)
        let released = wait { live.withLock { $0 } == 0 }
        print(
            "\(label): cancelled \(batchSize) requests; tasks still running after the batch: \(runningAfterBatch);",
            "after draining: \(remaining); subscribers kept: \(live.withLock { $0 });",
            "events delivered before their cancel: \(events.withLock { $0 })")
        if remaining != "0" || !released { exit(EXIT_FAILURE) }
    }

    /// The printed counts of a batch, recorded for the report and checked.
    static func check(
        _ result: ExitTest.Result?,
        expecting expected: String = "after draining: 0; subscribers kept: 0",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        print(output, terminator: "")
        #expect(
            output.contains(expected), "\(output)\n\(errors)",
            sourceLocation: sourceLocation)
    }

    @Test func cancellingRequestsOnTheSharedSessionNeverCrashes() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]) {
            CancellationTests.cancelBatch("requestPublisher, shared", on: .shared) { URLSession.shared.requestPublisher(for: $0) }
        }
        Self.check(result)
    }

    @Test func cancellingDataTasksOnTheSharedSessionNeverCrashes() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]) {
            CancellationTests.cancelBatch("dataTaskPublisher, shared", on: .shared) {
                URLSession.shared.dataTaskPublisher(for: $0)
            }
        }
        Self.check(result)
    }

    @Test func cancellingRequestsOnAnEphemeralSessionNeverCrashes() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]) {
            let session = URLSession(configuration: .ephemeral)
            CancellationTests.cancelBatch("requestPublisher, ephemeral", on: session) { session.requestPublisher(for: $0) }
        }
        Self.check(result)
    }

    /// How many batches the watched test runs: each one trapped about one time in four before
    /// the batches stopped listing the session's tasks while they end.
    static let watchedRounds = 6

    /// The batches above wait for the session to drain while thousands of tasks end; here three
    /// more threads keep asking whether it has, batch after batch. FoundationNetworking's
    /// `getAllTasks` reads the session's table of tasks while its work queue removes the tasks
    /// that end, and asking it then trapped now and then (SIGILL in `allTasks`): under load,
    /// often enough to crash these tests in a full run.
    @Test func watchingBatchesDrainFromOtherThreadsNeverCrashes() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]) {
            let session = URLSession(configuration: .ephemeral)
            for round in 1...CancellationTests.watchedRounds {
                CancellationTests.cancelBatch("requestPublisher, watched, round \(round)", on: session, watchers: 3) {
                    session.requestPublisher(for: $0)
                }
            }
        }
        Self.check(result)
    }

    @Test func cancellingRequestsOnASessionWithoutCacheNeverCrashes() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]) {
            let configuration = URLSessionConfiguration.default
            configuration.urlCache = nil
            let session = URLSession(configuration: configuration)
            CancellationTests.cancelBatch("requestPublisher, no URL cache", on: session) { session.requestPublisher(for: $0) }
        }
        Self.check(result)
    }

    /// The search field: names typed 0 to 200 µs apart, each checked on
    /// `URLSession.shared` under `switchToLatest`, which cancels the check in flight on every
    /// keystroke. Prints what it counted; exits with a failure if the last check never arrives
    /// or tasks remain.
    static func typeAhead() {
        guard let server = try? MisbehavingServer(.answer) else { exit(EXIT_FAILURE) }
        defer { server.stop() }
        let names = PassthroughSubject<Int, Never>()
        let answers = Locked(0)
        let finished = Locked(false)
        let subscriptions = SubscriptionLifetimes()
        let clock = ContinuousClock()
        let cancellable =
            names
            .map {
                URLSession.shared.requestPublisher(for: server.url(path: "/isUserNameAvailable?userName=\($0)"))
                    .handleEvents(receiveSubscription: subscriptions.track)
                    .asResult()
            }
            .switchToLatest()
            .sink(
                receiveCompletion: { _ in finished.withLock { $0 = true } },
                receiveValue: { _ in answers.withLock { $0 += 1 } })
        for name in 0..<batchSize {
            names.send(name)
            let until = clock.now + .nanoseconds(Int.random(in: 0...200_000))
            while clock.now < until {}
        }
        names.send(completion: .finished)  // the last check still runs to its answer
        let answered = wait { finished.withLock { $0 } }
        cancellable.cancel()
        subscriptions.stopTracking()
        let remaining = drain(.shared, following: subscriptions)
        print(
            "switchToLatest, shared: typed \(batchSize) names; answers: \(answers.withLock { $0 });",
            "after draining: \(remaining)")
        if !answered || remaining != "0" { exit(EXIT_FAILURE) }
    }

    @Test func aSearchFieldUnderSwitchToLatestNeverCrashes() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]) {
            CancellationTests.typeAhead()
        }
        Self.check(result, expecting: "after draining: 0")
    }

    /// Subscribes a probe through `subscribe` to a server that never answers, waits until the
    /// request reached it, and cancels: the subscriber must be let go at once and never hear
    /// from the request. Returns the states of the session's tasks right after the cancel (the
    /// tasks are listed before it, while the server holds them and none can end).
    /// Unless `endsWithoutServer`, the server is then stopped, which ends a task still waiting
    /// for it; either way every task must end.
    static func cancelWhileTheServerHoldsTheRequest(
        session: URLSession,
        endsWithoutServer: Bool,
        subscribe: (URL, Probe<Void, Never>) -> Void
    ) throws -> [URLSessionTask.State] {
        let server = try MisbehavingServer(.neverAnswer)
        defer { server.stop() }
        let events = Locked(0)
        var probe: Probe<Void, Never>? = Probe(events: events)
        weak let released = probe
        subscribe(server.url(), probe!)
        #expect(wait { server.connections == 1 })
        let tasks = Self.tasks(of: session)
        #expect(tasks.count == 1)
        probe?.cancel()
        probe = nil
        #expect(released == nil, "the subscription still holds the subscriber after cancel()")
        let states = tasks.map(\.state)
        if !endsWithoutServer { server.stop() }
        #expect(wait { tasks.allSatisfy { $0.state == .completed } })
        #expect(events.withLock { $0 } == 0)
        return states
    }

    @Test(arguments: [false, true])
    func aCancelledRequestOnACachingSessionWaitsForTheHead(dataTask: Bool) throws {
        let session = URLSession(configuration: .ephemeral)
        let states = try Self.cancelWhileTheServerHoldsTheRequest(session: session, endsWithoutServer: false) {
            Self.subscribe($1, to: $0, on: session, dataTask: dataTask)
        }
        #if canImport(FoundationNetworking)
        // Not cancelled before its response head (that could trap): with no head from the
        // server, it runs until the server lets it go.
        try #require(session.configuration.urlCache != nil)
        #expect(states == [.running])
        #else
        #expect(states.allSatisfy { $0 != .running })
        #endif
    }

    @Test(arguments: [false, true])
    func aCancelledRequestOnASessionWithoutCacheIsCancelled(dataTask: Bool) throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        // Cancelled: the task ends while the server still holds the connection.
        let states = try Self.cancelWhileTheServerHoldsTheRequest(session: session, endsWithoutServer: true) {
            Self.subscribe($1, to: $0, on: session, dataTask: dataTask)
        }
        #expect(states.allSatisfy { $0 != .running })
    }

    @Test(arguments: [false, true])
    func aCancelledRequestAnsweredByTheAppsOwnProtocolRunsToItsEndUnseen(dataTask: Bool) throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self]
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        let url = "http://stub.test/held-\(dataTask)"
        StubURLProtocol.set(.init(holds: true), for: url)
        let events = Locked(0)
        var probe: Probe<Void, Never>? = Probe(events: events)
        weak let released = probe
        Self.subscribe(probe!, to: try #require(URL(string: url)), on: session, dataTask: dataTask)
        #expect(Self.wait { StubURLProtocol.requests(to: url) == 1 })
        let tasks = Self.tasks(of: session)  // held by the protocol: none can end meanwhile
        #expect(tasks.count == 1)
        probe?.cancel()
        probe = nil
        #expect(released == nil, "the subscription still holds the subscriber after cancel()")
        #if canImport(FoundationNetworking)
        #expect(tasks.map(\.state) == [.running])  // not cancelled: that could trap
        #endif
        StubURLProtocol.answerHeld(url)
        #expect(Self.wait { tasks.allSatisfy { $0.state == .completed } })
        #expect(events.withLock { $0 } == 0)
    }

    /// Subscribes `probe` to a request for `url`, through `dataTaskPublisher` or
    /// `requestPublisher`, its output mapped away.
    private static func subscribe(_ probe: Probe<Void, Never>, to url: URL, on session: URLSession, dataTask: Bool) {
        if dataTask {
            session.dataTaskPublisher(for: url).map { _ in }.replaceError(with: ()).subscribe(probe)
        } else {
            session.requestPublisher(for: url).map { _ in }.replaceError(with: ()).subscribe(probe)
        }
    }
}

#endif
