import Streams
import StreamsExt
import StreamsTesting
import Testing

/// CombineExt's one-line operators: `mapToValue`, `mapToVoid`, `mapToResult`,
/// `ignoreOutput(setOutputType:)`, `setOutputType(to:)`, `ignoreFailure`, `toggle`, `mapMany`,
/// `filterMany`.
@Suite("mapToValue, mapToVoid, mapToResult, setOutputType, ignoreFailure, toggle, mapMany, filterMany")
struct MapVariantsTests {
    @Test func mapToValueReplacesEveryValue() {
        let subscriber = TestSubscriber<String, Never>()
        [1, 2, 3].publisher.mapToValue("x").subscribe(subscriber)
        #expect(subscriber.events == [.subscription("[1, 2, 3]"), .value("x"), .value("x"), .value("x"), .completion(.finished)])
    }

    @Test func mapToValuePassesDemandAndFailureThrough() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        subject.mapToValue(7).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        #expect(subscriber.values == [7])
        subscriber.request(.max(1))
        subject.send(3)
        subject.send(completion: .failure(.oops))
        #expect(subscriber.values == [7, 7])
        #expect(subscriber.completion == .failure(.oops))
    }

    @Test func mapToVoidKeepsOnlyTheArrival() {
        let subject = PassthroughSubject<String, Never>()
        var count = 0
        let cancellable = subject.mapToVoid().sink { count += 1 }
        subject.send("a")
        subject.send("b")
        cancellable.cancel()
        subject.send("c")
        #expect(count == 2)
    }

    @Test func mapToResultWrapsValuesAndTheFailure() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Result<Int, TestError>, Never>()
        let erased: AnyPublisher<Result<Int, TestError>, Never> = subject.mapToResult()
        erased.subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(.oops))
        #expect(subscriber.values == [.success(1), .failure(.oops)])
        #expect(subscriber.completion == .finished)
    }

    @Test func mapToResultFailureWaitsForDemand() {
        let subscriber = TestSubscriber<Result<Int, TestError>, Never>(initialDemand: nil)
        Fail<Int, TestError>(error: .other).mapToResult().subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.values == [.failure(.other)])
        #expect(subscriber.completion == .finished)
    }

    @Test func ignoreOutputSetOutputTypeSendsOnlyTheCompletion() {
        let subscriber = TestSubscriber<String, TestError>()
        let typed: Publishers.Map<Publishers.IgnoreOutput<PassthroughSubject<Int, TestError>>, String>
        let subject = PassthroughSubject<Int, TestError>()
        typed = subject.ignoreOutput(setOutputType: String.self)
        typed.append("done").subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .finished)
        #expect(subscriber.values == ["done"])
        #expect(subscriber.completion == .finished)
    }

    @Test func ignoreOutputSetOutputTypeForwardsTheFailure() {
        let subscriber = TestSubscriber<Int, TestError>()
        Fail<String, TestError>(error: .oops).ignoreOutput(setOutputType: Int.self).subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == .failure(.oops))
    }

    @Test func setOutputTypeOnANeverPublisher() {
        let subscriber = TestSubscriber<Int, Never>()
        Empty<Never, Never>().setOutputType(to: Int.self).merge(with: Just(1)).subscribe(subscriber)
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .finished)
    }

    @Test func ignoreFailureFinishesInsteadOfFailing() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.ignoreFailure().subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(.oops))
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .finished)
    }

    @Test func ignoreFailureWithoutCompletingStaysOpen() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.ignoreFailure(completeImmediately: false).subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(.oops))
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == nil)
        subscriber.cancel()
    }

    @Test func ignoreFailureSetFailureType() {
        enum Other: Error, Equatable { case never }
        let subscriber = TestSubscriber<Int, Other>()
        let typed: AnyPublisher<Int, Other> = Fail<Int, TestError>(error: .oops).ignoreFailure(setFailureType: Other.self)
        typed.subscribe(subscriber)
        #expect(subscriber.completion == .finished)
    }

    @Test func ignoreFailureKeepsFinished() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2].publisher.setFailureType(to: TestError.self).ignoreFailure().subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .finished)
    }

    @Test func toggleNegates() {
        let subscriber = TestSubscriber<Bool, Never>()
        [true, false, true].publisher.toggle().subscribe(subscriber)
        #expect(subscriber.values == [false, true, false])
        #expect(subscriber.completion == .finished)
    }

    @Test func mapManyMapsEachElement() {
        let subscriber = TestSubscriber<[String], Never>()
        [[1, 2], [], [3]].publisher.mapMany { "\($0 * 10)" }.subscribe(subscriber)
        #expect(subscriber.values == [["10", "20"], [], ["30"]])
        #expect(subscriber.completion == .finished)
    }

    @Test func mapManyIsOneValueOutPerValueIn() {
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1))
        [[1, 2], [3]].publisher.mapMany { $0 }.subscribe(subscriber)
        #expect(subscriber.values == [[1, 2]])
        subscriber.request(.max(1))
        #expect(subscriber.values == [[1, 2], [3]])
        #expect(subscriber.completion == .finished)
    }

    @Test func filterManyFiltersEachCollection() {
        let subscriber = TestSubscriber<[Int], Never>()
        [[1, 2, 3, 4], [1], []].publisher.filterMany { $0.isMultiple(of: 2) }.subscribe(subscriber)
        #expect(subscriber.values == [[2, 4], [], []])
        #expect(subscriber.completion == .finished)
    }

    @Test func filterManyOnAStringGivesCharacters() {
        let subscriber = TestSubscriber<[Character], Never>()
        Just("a1b2").filterMany(\.isLetter).subscribe(subscriber)
        #expect(subscriber.values == [["a", "b"]])
    }
}
