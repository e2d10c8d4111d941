// Compiled with `import Streams` only (and a stand-in for another library): every name used here
// is one a Combine user may already have declared. If `Streams` gained a member on a standard
// library type that shadows one of these (`Collection.zip()` shadowing `Swift.zip` inside any
// collection type, as it did in GRDB's `Row`), or a type or operator of the same name as a user's
// own, this file stops compiling. It is the test; the assertions only check that the user's
// declarations were the ones chosen.
import Foundation
import Streams
import StreamsNamespaceFixtures
import Testing

// MARK: - A user's own collection type, calling global functions by their plain names

/// A user's collection, like GRDB's `Row`: inside its methods, an unqualified name finds a
/// member of `Collection` before a global function.
struct Row: Collection {
    var cells: [Int]
    var startIndex: Int { cells.startIndex }
    var endIndex: Int { cells.endIndex }
    subscript(position: Int) -> Int { cells[position] }
    func index(after index: Int) -> Int { cells.index(after: index) }

    func pairs(with other: Row) -> [(Int, Int)] {
        Array(zip(self, other))
    }

    func sameCells(as other: Row) -> Bool {
        for (left, right) in zip(self, other) where left != right { return false }
        return true
    }

    func merged(with other: Row) -> Row {
        merge(self, other)
    }

    func latest(with other: Row) -> Row {
        combineLatest(self, other)
    }

    func first(of other: Row) -> Row {
        amb(self, other)
    }

    func batches(of size: Int) -> [[Int]] {
        flatMapBatches(self, size)
    }

    var smallest: Int? { self.min() }
    var largest: Int? { self.max() }
}

/// Global functions a user declared, with the names of CombineExt's collection operators.
func merge(_ first: Row, _ second: Row) -> Row { Row(cells: first.cells + second.cells) }
func combineLatest(_ first: Row, _ second: Row) -> Row { Row(cells: [first.cells.last, second.cells.last].compactMap { $0 }) }
func amb(_ first: Row, _ second: Row) -> Row { first.cells.isEmpty ? second : first }
func flatMapBatches(_ row: Row, _ size: Int) -> [[Int]] {
    stride(from: 0, to: row.cells.count, by: size).map { Array(row.cells[$0..<Swift.min($0 + size, row.cells.count)]) }
}

/// A user's own operator on a standard library type, with a name Streams uses on `Publisher`.
extension Optional {
    func asResult() -> Result<Wrapped, Never>? { map { .success($0) } }
}

// MARK: - A user's own operators in Combine's namespaces

extension Publishers {
    /// A user's own `materialize`, as several Combine libraries declare it.
    struct Materialize<Upstream: Publisher>: Publisher {
        typealias Output = String
        typealias Failure = Never
        let upstream: Upstream

        func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream
                .map { "value \($0)" }
                .catch { _ in Just("failure") }
                .append("finished")
                .receive(subscriber: subscriber)
        }
    }

    /// A user's own `withLatestFrom`.
    struct WithLatestFrom<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        typealias Output = (Upstream.Output, Other.Output)
        typealias Failure = Upstream.Failure
        let upstream: Upstream
        let other: Other

        func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.combineLatest(other).receive(subscriber: subscriber)
        }
    }

    /// A user's own `retryWhen`, as libraries that carry a copy of CombineExt's declare it.
    final class RetryWhen<Upstream: Publisher, RetryTrigger: Publisher, Output, Failure>: Publisher
    where Upstream.Output == Output, Upstream.Failure == Failure {
        let upstream: Upstream
        let trigger: (AnyPublisher<Failure, Never>) -> RetryTrigger

        init(upstream: Upstream, trigger: @escaping (AnyPublisher<Failure, Never>) -> RetryTrigger) {
            self.upstream = upstream
            self.trigger = trigger
        }

        func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.retry(1).receive(subscriber: subscriber)
        }
    }

    /// A user's own `dematerialize`.
    struct Dematerialize<Upstream: Publisher>: Publisher where Upstream.Output == String {
        typealias Output = String
        typealias Failure = Upstream.Failure
        let upstream: Upstream

        func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.filter { $0.hasPrefix("value ") }.map { String($0.dropFirst(6)) }.receive(subscriber: subscriber)
        }
    }
}

extension Publisher {
    func materialize() -> Publishers.Materialize<Self> { Publishers.Materialize(upstream: self) }
    func withLatestFrom<Other: Publisher>(_ other: Other) -> Publishers.WithLatestFrom<Self, Other> {
        Publishers.WithLatestFrom(upstream: self, other: other)
    }
    func retryWhen<RetryTrigger: Publisher>(
        _ trigger: @escaping (AnyPublisher<Failure, Never>) -> RetryTrigger
    ) -> Publishers.RetryWhen<Self, RetryTrigger, Output, Failure> {
        Publishers.RetryWhen(upstream: self, trigger: trigger)
    }
    func share(replay: Int) -> Publishers.Share<Self> { share() }
    func mapToVoid() -> Publishers.Map<Self, Void> { map { _ in } }
    func ignoreFailure() -> Publishers.Catch<Self, Empty<Output, Never>> { self.catch { _ in Empty() } }
    func toggle() -> Publishers.Map<Self, Bool> where Output == Bool { map { !$0 } }
    func circuitBreaker() -> Self { self }
    func hedge() -> Self { self }
    func attemptTimeout() -> Self { self }
}

extension AsyncSequence {
    /// A user's own bridge, as many apps declare it.
    var publisher: String { "own bridge" }
}

extension Scheduler {
    func sleep(seconds: Int) -> Int { seconds }
    func timer() -> String { "own timer" }
    func measure() -> String { "own measure" }
}

// MARK: - The tests: each use must resolve to the user's declaration

@Suite("Streams declares no name a Combine user may already have")
struct NamespaceTests {
    @Test func globalFunctionsInsideAUserCollection() {
        let left = Row(cells: [1, 2, 3])
        let right = Row(cells: [1, 5, 3])
        #expect(left.pairs(with: right).map { $0.0 + $0.1 } == [2, 7, 6])
        #expect(!left.sameCells(as: right))
        #expect(left.merged(with: right).cells == [1, 2, 3, 1, 5, 3])
        #expect(left.latest(with: right).cells == [3, 3])
        #expect(left.first(of: right).cells == [1, 2, 3])
        #expect(left.batches(of: 2) == [[1, 2], [3]])
        #expect(left.smallest == 1 && left.largest == 3)
        #expect(Optional(1).asResult() != nil)
    }

    @Test func anotherLibrarysTypesKeepTheirPlainNames() {
        let event: Event<Int> = .next(1)
        if case .next(let value) = event { #expect(value == 1) } else { Issue.record("not the user's Event") }
        let subject = ReplaySubject<Int>(bufferSize: 1)
        subject.onNext(1)
        subject.onNext(2)
        #expect(subject.buffer == [2])
        #expect(CurrentValueRelay(3).value == 3)
        _ = PassthroughRelay<Int>()
        let breaker = CircuitBreaker()
        breaker.recordFailure()
        #expect(breaker.failures == 1)
        #expect(RateLimiter(permitsPerSecond: 2).permitsPerSecond == 2)
        #expect(ResilienceEvent.opened != .closed)
        #expect(ErrorOrigin.client != .server)
        struct Refusal: PresentableError { var title: String { "Refused" } }
        #expect(Refusal().title == "Refused")
        struct Tick: TimelineInstant { var secondsSinceStart: Double { 1 } }
        #expect(Tick().secondsSinceStart == 1)
    }

    @Test func theUsersOwnOperatorsInCombinesNamespaces() {
        var received: [String] = []
        let subscription = [1, 2].publisher.setFailureType(to: URLError.self).materialize()
            .sink { received.append($0) }
        subscription.cancel()
        #expect(received == ["value 1", "value 2", "finished"])

        var pairs: [String] = []
        _ = Just(1).withLatestFrom(Just("a")).sink { pairs.append("\($0.0)\($0.1)") }
        #expect(pairs == ["1a"])

        var values: [String] = []
        _ = Just("value x").dematerializeOwn().sink { values.append($0) }
        #expect(values == ["x"])

        var attempts = 0
        var retried: [Int] = []
        _ = Deferred {
            attempts += 1
            return attempts == 1
                ? Fail<Int, URLError>(error: URLError(.timedOut)).eraseToAnyPublisher()
                : Just(attempts).setFailureType(to: URLError.self).eraseToAnyPublisher()
        }
        .retryWhen { $0 }
        .sink(receiveCompletion: { _ in }, receiveValue: { retried.append($0) })
        #expect(retried == [2])

        var shared: [Int] = []
        _ = Just(4).share(replay: 1).sink { shared.append($0) }
        #expect(shared == [4])

        var toggled: [Bool] = []
        _ = Just(true).toggle().sink { toggled.append($0) }
        #expect(toggled == [false])
        _ = Just(1).mapToVoid().sink { _ in }
        _ = Fail<Int, URLError>(error: URLError(.badURL)).ignoreFailure().sink { _ in }
        #expect(Just(1).circuitBreaker().hedge().attemptTimeout().output == 1)
        #expect(AsyncStream<Int> { $0.finish() }.publisher == "own bridge")
        #expect(ImmediateScheduler.shared.sleep(seconds: 2) == 2)
        #expect(ImmediateScheduler.shared.timer() == "own timer")
        #expect(ImmediateScheduler.shared.measure() == "own measure")
    }
}

extension Publisher where Output == String {
    func dematerializeOwn() -> Publishers.Dematerialize<Self> { Publishers.Dematerialize(upstream: self) }
}
