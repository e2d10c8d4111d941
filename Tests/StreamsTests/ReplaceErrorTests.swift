import Streams
import StreamsTesting
import Testing

@Suite("replaceError, asResult")
struct ReplaceErrorTests {
    @Test func replaceErrorSendsTheReplacementThenFinishes() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.replaceError(with: 0).subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription("ReplaceError"), .value(1), .value(0), .completion(.finished)])
    }

    @Test func replacementWaitsForDemand() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subject.replaceError(with: 0).subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(.oops))
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 0])
        #expect(subscriber.completion == .finished)
    }

    @Test func finishedPassesThroughWithoutReplacement() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2].publisher.setFailureType(to: TestError.self).replaceError(with: 0).subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .finished)
    }

    @Test func asResultWrapsValuesAndTheFailure() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Result<Int, TestError>, Never>()
        subject.asResult().subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(.oops))
        #expect(subscriber.values == [.success(1), .failure(.oops)])
        #expect(subscriber.completion == .finished)
        #expect(String(describing: subscriber.subscription!) == "AsResult")
    }

    @Test func asResultFailureWaitsForDemand() {
        let subscriber = TestSubscriber<Result<Int, TestError>, Never>(initialDemand: nil)
        Fail<Int, TestError>(error: .other).asResult().subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.values == [.failure(.other)])
        #expect(subscriber.completion == .finished)
    }

    @Test func cancelBeforeTheFailureIsDeliveredDropsIt() {
        let subscriber = TestSubscriber<Result<Int, TestError>, Never>(initialDemand: nil)
        Fail<Int, TestError>(error: .other).asResult().subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == nil)
    }
}
