import Streams
import StreamsTesting
import Testing

@Suite("mapError, setFailureType")
struct MapErrorTests {
    struct Wrapped: Error, Equatable { let inner: TestError }

    @Test func mapErrorChangesOnlyTheFailure() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, Wrapped>()
        subject.mapError { Wrapped(inner: $0) }.subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(.oops))
        #expect(
            subscriber.events == [.subscription("PassthroughSubject"), .value(1), .completion(.failure(Wrapped(inner: .oops)))])
    }

    @Test func mapErrorPassesFinished() {
        let subscriber = TestSubscriber<Int, Wrapped>()
        Empty<Int, TestError>().mapError { Wrapped(inner: $0) }.subscribe(subscriber)
        #expect(subscriber.completion == .finished)
    }

    @Test func setFailureTypeLetsANeverFailingPublisherJoinAFailingChain() {
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        [1, 2].publisher.setFailureType(to: TestError.self).subscribe(subscriber)
        #expect(subscriber.values == [1])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .finished)
        let twice: Publishers.SetFailureType<Just<Int>, Wrapped> =
            Just(1).setFailureType(to: TestError.self).setFailureType(to: Wrapped.self)
        _ = twice
    }
}
