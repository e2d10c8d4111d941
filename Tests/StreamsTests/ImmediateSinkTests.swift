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
    static func observe<P: Publisher>(_ publisher: P) -> [String] where P.Output: Sendable {
        let log = Log<String>()
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
