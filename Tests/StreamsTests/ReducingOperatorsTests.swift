import Streams
import StreamsTesting
import Testing

@Suite("reduce, count, last, ignoreOutput, contains, allSatisfy, min, max")
struct ReducingOperatorsTests {
    /// The failure of a `try` operator, as the test error it should be.
    private func thrownError<T>(_ subscriber: TestSubscriber<T, any Error>) -> TestError? {
        guard case .failure(let error)? = subscriber.completion else { return nil }
        return error as? TestError
    }

    @Test func reduceSendsTheFoldWhenUpstreamFinishes() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<String, Never>()
        subject.reduce("") { $0 + String($1) }.subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        #expect(subscriber.values.isEmpty)
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription("Reduce"), .value("12"), .completion(.finished)])
    }

    @Test func reduceOfNothingSendsTheInitialValue() {
        let subscriber = TestSubscriber<Int, Never>()
        Empty<Int, Never>().reduce(10, +).subscribe(subscriber)
        #expect(subscriber.values == [10])
    }

    @Test func reduceWaitsForDemandButNotAFailure() {
        let waiting = TestSubscriber<Int, Never>(initialDemand: nil)
        [1, 2, 3].publisher.eraseToAnyPublisher().reduce(0, +).subscribe(waiting)
        #expect(waiting.values.isEmpty)
        waiting.request(.max(1))
        #expect(waiting.values == [6])
        #expect(waiting.completion == .finished)

        let failing = TestSubscriber<Int, TestError>(initialDemand: nil)
        Fail<Int, TestError>(error: .oops).reduce(0, +).subscribe(failing)
        #expect(failing.events == [.subscription("Reduce"), .completion(.failure(.oops))])
    }

    @Test func tryReduceFailsOnThrowAndCancelsUpstream() {
        let cancels = Log<Void>()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        subject.handleEvents(receiveCancel: { cancels.append(()) })
            .tryReduce(0) { sum, value in
                guard value >= 0 else { throw TestError.oops }
                return sum + value
            }
            .subscribe(subscriber)
        subject.send(1)
        subject.send(-1)
        subject.send(5)
        #expect(subscriber.values.isEmpty)
        #expect(thrownError(subscriber) == .oops)
        #expect(cancels.items.count == 1)
    }

    @Test func countCountsTheValues() {
        let subscriber = TestSubscriber<Int, Never>()
        ["a", "b", "c"].publisher.eraseToAnyPublisher().count().subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Count"), .value(3), .completion(.finished)])
        let empty = TestSubscriber<Int, Never>()
        Empty<String, Never>().count().subscribe(empty)
        #expect(empty.values == [0])
    }

    @Test func lastSendsTheLastValueOrJustFinishes() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3].publisher.eraseToAnyPublisher().last().subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Last"), .value(3), .completion(.finished)])
        // Nothing to send: as in Combine, the bare completion still waits for demand.
        let empty = TestSubscriber<Int, Never>(initialDemand: nil)
        Empty<Int, Never>().last().subscribe(empty)
        #expect(empty.events == [.subscription("Last")])
        empty.subscription?.request(.max(1))
        #expect(empty.events == [.subscription("Last"), .completion(.finished)])
    }

    @Test func lastWhereAndTryLastWhere() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3, 4, 5].publisher.eraseToAnyPublisher().last { $0.isMultiple(of: 2) }.subscribe(subscriber)
        #expect(subscriber.values == [4])
        #expect(subscriber.completion == .finished)

        let throwing = TestSubscriber<Int, any Error>()
        [2, 4, -1, 6].publisher
            .tryLast { value in
                guard value >= 0 else { throw TestError.other }
                return value.isMultiple(of: 2)
            }
            .subscribe(throwing)
        #expect(throwing.values.isEmpty)
        #expect(thrownError(throwing) == .other)
    }

    @Test func ignoreOutputPassesOnlyTheCompletion() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Never, TestError>(initialDemand: nil)
        subject.ignoreOutput().subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(.oops))
        // Pass-through, as in Combine: the downstream sees the upstream's own subscription.
        #expect(subscriber.events == [.subscription("PassthroughSubject"), .completion(.failure(.oops))])

        let finishing = TestSubscriber<Never, Never>(initialDemand: nil)
        [1, 2].publisher.eraseToAnyPublisher().ignoreOutput().subscribe(finishing)
        #expect(finishing.completion == .finished)
    }

    @Test func containsAnswersAtTheFirstMatchAndCancelsUpstream() {
        let cancels = Log<Void>()
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<Bool, Never>()
        subject.handleEvents(receiveCancel: { cancels.append(()) }).contains("admin").subscribe(subscriber)
        subject.send("guest")
        subject.send("admin")
        subject.send("admin")
        #expect(subscriber.events == [.subscription("Contains"), .value(true), .completion(.finished)])
        #expect(cancels.items.count == 1)

        let missing = TestSubscriber<Bool, Never>()
        ["a", "b"].publisher.eraseToAnyPublisher().contains("c").subscribe(missing)
        #expect(missing.values == [false])
    }

    @Test func containsWhereAndTryContainsWhere() {
        let subscriber = TestSubscriber<Bool, Never>()
        [1, 5, 20].publisher.eraseToAnyPublisher().contains { $0 > 10 }.subscribe(subscriber)
        #expect(subscriber.values == [true])

        let throwing = TestSubscriber<Bool, any Error>()
        [1, -1, 20].publisher.eraseToAnyPublisher()
            .tryContains { value in
                guard value >= 0 else { throw TestError.oops }
                return value > 10
            }
            .subscribe(throwing)
        #expect(throwing.values.isEmpty)
        #expect(thrownError(throwing) == .oops)
    }

    @Test func allSatisfyAnswersAtTheFirstFailure() {
        let cancels = Log<Void>()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Bool, Never>()
        subject.handleEvents(receiveCancel: { cancels.append(()) }).allSatisfy { $0 > 0 }.subscribe(subscriber)
        subject.send(1)
        subject.send(-1)
        #expect(subscriber.events == [.subscription("AllSatisfy"), .value(false), .completion(.finished)])
        #expect(cancels.items.count == 1)

        let all = TestSubscriber<Bool, Never>()
        [1, 2].publisher.eraseToAnyPublisher().allSatisfy { $0 > 0 }.subscribe(all)
        #expect(all.values == [true])
        let vacuous = TestSubscriber<Bool, Never>()
        Empty<Int, Never>().allSatisfy { $0 > 0 }.subscribe(vacuous)
        #expect(vacuous.values == [true])
    }

    @Test func tryAllSatisfyFailsOnThrow() {
        let subscriber = TestSubscriber<Bool, any Error>()
        [1, 2, 3].publisher.eraseToAnyPublisher()
            .tryAllSatisfy { value in
                guard value < 3 else { throw TestError.other }
                return true
            }
            .subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        #expect(thrownError(subscriber) == .other)
    }

    @Test func minAndMaxKeepTheFirstOfEqualValues() {
        let words = ["bb", "a", "cc", "d"]
        let shortest = TestSubscriber<String, Never>()
        words.publisher.eraseToAnyPublisher().min { $0.count < $1.count }.subscribe(shortest)
        #expect(shortest.values == ["a"])
        let longest = TestSubscriber<String, Never>()
        words.publisher.eraseToAnyPublisher().max { $0.count < $1.count }.subscribe(longest)
        #expect(longest.values == ["bb"])

        let smallest = TestSubscriber<Int, Never>()
        [3, 1, 2].publisher.eraseToAnyPublisher().min().subscribe(smallest)
        #expect(smallest.events == [.subscription("Comparison"), .value(1), .completion(.finished)])
        let largest = TestSubscriber<Int, Never>()
        [3, 1, 2].publisher.eraseToAnyPublisher().max().subscribe(largest)
        #expect(largest.values == [3])
        let none = TestSubscriber<Int, Never>()
        Empty<Int, Never>().max().subscribe(none)
        #expect(none.events == [.subscription("Comparison"), .completion(.finished)])
    }

    @Test func tryMinAndTryMax() {
        let smallest = TestSubscriber<Int, any Error>()
        [3, 1, 2].publisher.eraseToAnyPublisher().tryMin { $0 < $1 }.subscribe(smallest)
        #expect(smallest.values == [1])
        let largest = TestSubscriber<Int, any Error>()
        [3, 1, 2].publisher.eraseToAnyPublisher().tryMax { $0 < $1 }.subscribe(largest)
        #expect(largest.values == [3])

        let throwing = TestSubscriber<Int, any Error>()
        [3, 1, 2].publisher
            .tryMax { lhs, rhs in
                guard lhs != 1, rhs != 1 else { throw TestError.oops }
                return lhs < rhs
            }
            .subscribe(throwing)
        #expect(throwing.values.isEmpty)
        #expect(thrownError(throwing) == .oops)
    }

    @Test func cancelBeforeTheResultSendsNothing() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        [1, 2].publisher.eraseToAnyPublisher().count().subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription("Count")])
    }
}
