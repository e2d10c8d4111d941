import Streams
import Testing

/// `sink` on a publisher whose outcome is known (`Just`, `Empty`, `Fail`, `Optional.Publisher`,
/// `Result.Publisher`, and those behind `setFailureType` or `eraseToAnyPublisher()`) delivers
/// its events without making a sink or a subscription. Each check runs the same code twice, once
/// on the publisher as it is and once behind ``ImmediateInnerTests/Subscribed`` (which hides the
/// outcome, so a sink subscribes to it), and expects the same log.
@Suite("sink of publishers that complete at once")
struct ImmediateSinkTests {
    typealias Subscribed = ImmediateInnerTests.Subscribed

    /// Logs its end, so that a test can see when the closures that capture it are released.
    final class Sentinel: @unchecked Sendable {
        let log: Log<String>
        init(log: Log<String>) { self.log = log }
        deinit { log.append("closures released") }
    }

    /// What `sink` on `publisher` is seen to do: the closures' calls, its return, the release of
    /// its closures, and what cancelling (twice) and letting the cancellable go do.
    static func observe<P: Publisher>(_ publisher: P, log: Log<String> = Log()) -> [String] where P.Output: Sendable {
        var cancellable: AnyCancellable?
        do {
            let sentinel = Sentinel(log: log)
            cancellable = publisher.sink(
                receiveCompletion: { completion in
                    withExtendedLifetime(sentinel) { log.append("completion \(completion)") }
                },
                receiveValue: { value in
                    withExtendedLifetime(sentinel) { log.append("value \(value)") }
                })
            log.append("returned")
        }
        log.append("holding the cancellable")
        cancellable?.cancel()
        cancellable?.cancel()
        log.append("cancelled")
        cancellable = nil
        log.append("let go")
        return log.items
    }

    static func expectSame<P: Publisher>(_ publisher: P, sourceLocation: SourceLocation = #_sourceLocation)
    where P.Output: Sendable {
        #expect(
            publisher._immediateOutcome() != nil, "the check needs a publisher with a known outcome",
            sourceLocation: sourceLocation)
        #expect(Subscribed(base: publisher)._immediateOutcome() == nil, sourceLocation: sourceLocation)
        let direct = observe(publisher)
        let subscribed = observe(Subscribed(base: publisher))
        #expect(direct == subscribed, sourceLocation: sourceLocation)
        #expect(direct.count > 5, "the log should show the events", sourceLocation: sourceLocation)
    }

    @Test func eventsOrderAndClosureLifetimesMatchASubscribedSink() {
        Self.expectSame(Just(1))
        Self.expectSame(Just(2).map { $0 * 10 })
        Self.expectSame(Empty<Int, TestError>())
        Self.expectSame(Fail<Int, TestError>(error: .oops))
        Self.expectSame(Optional(3).publisher)
        Self.expectSame(Optional<Int>.none.publisher)
        Self.expectSame(Result<Int, TestError>.success(4).publisher)
        Self.expectSame(Result<Int, TestError>.failure(.other).publisher)
        Self.expectSame(Just(5).setFailureType(to: TestError.self))
        Self.expectSame(Just(6).eraseToAnyPublisher())
        Self.expectSame(Fail<Int, TestError>(error: .oops).eraseToAnyPublisher())
    }

    /// `sink` on `upstream.catch(recovery)`, its handler's calls logged, with the upstream as it
    /// is and behind ``Subscribed``: the same log.
    static func expectSameThroughCatch<Upstream: Publisher, Recovery: Publisher>(
        _ upstream: Upstream, _ recovery: @escaping (Upstream.Failure) -> Recovery,
        sourceLocation: SourceLocation = #_sourceLocation
    ) where Recovery.Output == Upstream.Output, Upstream.Output: Sendable {
        func run<P: Publisher>(_ upstream: P) -> [String] where P.Output == Upstream.Output, P.Failure == Upstream.Failure {
            let log = Log<String>()
            let publisher = upstream.catch { error in
                log.append("handler \(error)")
                return recovery(error)
            }
            return observe(publisher, log: log)
        }
        let direct = run(upstream)
        let subscribed = run(Subscribed(base: upstream))
        #expect(direct == subscribed, sourceLocation: sourceLocation)
        #expect(direct.count > 4, "the log should show the events", sourceLocation: sourceLocation)
    }

    @Test func catchOfAKnownOutcomeMatchesASubscribedSink() {
        Self.expectSameThroughCatch(Fail<Int, TestError>(error: .oops)) { _ in Just(1) }
        Self.expectSameThroughCatch(Fail<Int, TestError>(error: .oops)) { _ in Fail<Int, TestError>(error: .other) }
        Self.expectSameThroughCatch(Fail<Int, TestError>(error: .oops)) { _ in Empty<Int, Never>() }
        Self.expectSameThroughCatch(Fail<Int, TestError>(error: .oops)) { _ in Optional<Int>.none.publisher }
        Self.expectSameThroughCatch(Result<Int, TestError>.failure(.other).publisher) { _ in Just(2) }
        Self.expectSameThroughCatch(Fail<Int, TestError>(error: .oops).eraseToAnyPublisher()) { _ in Just(3) }
        // The handler is never called: the upstream's own events.
        Self.expectSameThroughCatch(Just(4).setFailureType(to: TestError.self)) { _ in Just(0) }
        Self.expectSameThroughCatch(Empty<Int, TestError>()) { _ in Just(0) }
        // Recoveries whose outcome is not known are subscribed to.
        Self.expectSameThroughCatch(Fail<Int, TestError>(error: .oops)) { _ in [5, 6].publisher }
        Self.expectSameThroughCatch(Fail<Int, TestError>(error: .oops)) { _ in Deferred { Just(7) } }
        Self.expectSameThroughCatch(Fail<Int, TestError>(error: .oops)) { _ in
            Fail<Int, TestError>(error: .other).catch { _ in Just(8) }
        }
        Self.expectSameThroughCatch(Fail<Int, TestError>(error: .oops)) { _ in PassthroughSubject<Int, Never>() }
    }

    @Test func catchOfAFailureCallsTheHandlerOnceAndDeliversWithoutASubscription() {
        let log = Log<String>()
        let publisher = Fail<Int, TestError>(error: .oops).catch { error in
            log.append("handler \(error)")
            return Just(1)
        }
        #expect(publisher._immediateOutcome() == nil, "the outcome depends on the handler")
        #expect(log.items.isEmpty, "asking for the outcome does not call the handler")
        let cancellable = publisher._sinkDirectly(
            receiveCompletion: { log.append("completion \($0)") }, receiveValue: { log.append("value \($0)") })
        #expect(cancellable != nil)
        #expect(log.items == ["handler oops", "value 1", "completion finished"])
        let hidden = Subscribed(base: Fail<Int, TestError>(error: .oops)).catch { _ in Just(1) }
        let subscribing = hidden._sinkDirectly(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(subscribing == nil, "an outcome known only by subscribing leaves the sink to subscribe")
        #expect(Just(2).setFailureType(to: TestError.self).catch { _ in Just(0) }._immediateOutcome() == .success(2))

        // As a `flatMap` child, which asks for the outcome before subscribing: one call.
        let before = log.items.count
        let flattened = Just(0).flatMap { _ in publisher }.sink { log.append("value \($0)") }
        withExtendedLifetime(flattened) {}
        #expect(log.items.dropFirst(before) == ["handler oops", "value 1"])
    }

    @Test func aCatchRecoverySubscribedDirectlyStillSeesCatchsSubscriber() {
        /// Logs the description of each subscriber it is given, then acts as a subject.
        struct Described: Publisher {
            typealias Output = Int
            typealias Failure = Never
            let log: Log<String>
            let subject: PassthroughSubject<Int, Never>
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
                log.append("subscriber \(subscriber)")
                subject.receive(subscriber: subscriber)
            }
        }
        for hidden in [false, true] {
            let log = Log<String>()
            let subject = PassthroughSubject<Int, Never>()
            let recovery = Described(log: log, subject: subject)
            let fail = Fail<Int, TestError>(error: .oops)
            let cancellable =
                hidden
                ? Subscribed(base: fail).catch { _ in recovery }.sink { log.append("value \($0)") }
                : fail.catch { _ in recovery }.sink { log.append("value \($0)") }
            subject.send(1)
            cancellable.cancel()
            subject.send(2)
            #expect(log.items == ["subscriber Catch", "value 1"], "hidden: \(hidden)")
        }
    }

    @Test func theEventsArriveBeforeSinkReturns() {
        #expect(
            Self.observe(Just(7)) == [
                "value 7", "completion finished", "returned", "closures released", "holding the cancellable",
                "cancelled", "let go",
            ])
        #expect(
            Self.observe(Fail<Int, TestError>(error: .oops)) == [
                "completion \(Subscribers.Completion<TestError>.failure(.oops))", "returned", "closures released",
                "holding the cancellable", "cancelled", "let go",
            ])
    }

    @Test func aSinkInsideTheValueClosureRunsInOrder() {
        let log = Log<String>()
        let outer = Just(1).sink { value in
            log.append("outer \(value)")
            let inner = Just(2).sink(
                receiveCompletion: { log.append("inner \($0)") }, receiveValue: { log.append("inner \($0)") })
            withExtendedLifetime(inner) {}
            log.append("outer done")
        }
        withExtendedLifetime(outer) {}
        #expect(log.items == ["outer 1", "inner 2", "inner finished", "outer done"])
    }

    @Test func eachCallReturnsItsOwnCancellable() {
        var cancellables = Set<AnyCancellable>()
        Just(1).sink { _ in }.store(in: &cancellables)
        Just(1).sink { _ in }.store(in: &cancellables)
        Empty<Int, Never>().sink { _ in }.store(in: &cancellables)
        #expect(cancellables.count == 3)
    }

    @Test func aPublisherThatDoesNotCompleteAtOnceIsSubscribedTo() {
        let log = Log<String>()
        var cancellable: AnyCancellable?
        do {
            let sentinel = Sentinel(log: log)
            cancellable = Empty<Int, Never>(completeImmediately: false).sink { _ in withExtendedLifetime(sentinel) {} }
        }
        #expect(log.items.isEmpty, "a live sink keeps its closures")
        cancellable?.cancel()
        #expect(log.items == ["closures released"])
    }
}
