import Streams
import StreamsTesting
import Testing

@Suite("retry(_:)")
struct RetryTests {
    /// A publisher that sends its values, then fails, synchronously, counting subscriptions.
    final class Flaky: @unchecked Sendable {
        var subscriptions = 0
        func publisher(values: [Int] = []) -> AnyPublisher<Int, TestError> {
            Deferred { [self] () -> Publishers.Concatenate<Publishers.Sequence<[Int], TestError>, Fail<Int, TestError>> in
                subscriptions += 1
                return values.publisher.setFailureTypeCompat().append(Fail(error: .oops))
            }.eraseToAnyPublisher()
        }
    }

    @Test func subscribesOnePlusNTimesThenDeliversTheFailure() {
        let flaky = Flaky()
        let subscriber = TestSubscriber<Int, TestError>()
        flaky.publisher(values: [1]).retry(2).subscribe(subscriber)
        #expect(flaky.subscriptions == 3)
        #expect(subscriber.values == [1, 1, 1])
        #expect(subscriber.completion == .failure(.oops))
        #expect(subscriber.subscriptionCount == 1)
        #expect(String(describing: subscriber.subscription!) == "Retry")
    }

    @Test func retryZeroNeverRetries() {
        let flaky = Flaky()
        let subscriber = TestSubscriber<Int, TestError>()
        flaky.publisher().retry(0).subscribe(subscriber)
        #expect(flaky.subscriptions == 1)
        #expect(subscriber.completion == .failure(.oops))
    }

    @Test func manySynchronousFailuresDoNotGrowTheStack() {
        let flaky = Flaky()
        let subscriber = TestSubscriber<Int, TestError>()
        flaky.publisher().retry(10_000).subscribe(subscriber)
        #expect(flaky.subscriptions == 10_001)
        #expect(subscriber.completion == .failure(.oops))
    }

    @Test func aNilCountRetriesUntilSuccess() {
        var attempts = 0
        let subscriber = TestSubscriber<Int, TestError>()
        let upstream = Deferred { () -> AnyPublisher<Int, TestError> in
            attempts += 1
            return attempts < 50
                ? Fail(error: .oops).eraseToAnyPublisher()
                : Just(attempts).setFailureType(to: TestError.self).eraseToAnyPublisher()
        }
        Publishers.Retry(upstream: upstream, retries: nil).subscribe(subscriber)
        #expect(subscriber.values == [50])
        #expect(subscriber.completion == .finished)
    }

    /// Combine retries forever for a negative count, by accident of its countdown; Streams traps
    /// (see Docs/MigratingFromCombine.md).
    @Test func aNegativeCountTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Fail<Int, TestError>(error: .oops).retry(-1)
        }
        await #expect(processExitsWith: .failure) {
            _ = Publishers.Retry(upstream: Fail<Int, TestError>(error: .oops), retries: -3)
        }
    }

    @Test func outstandingDemandCarriesOver() {
        let flaky = Flaky()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(3))
        flaky.publisher(values: [1, 2]).retry(5).subscribe(subscriber)
        // Two values from the first attempt, one from the second: then no demand is left, so
        // the second attempt waits with its values.
        #expect(subscriber.values == [1, 2, 1])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 1, 2])
    }

    @Test func cancelStopsResubscribing() {
        let subject = PassthroughSubject<Int, TestError>()
        var subscriptions = 0
        let subscriber = TestSubscriber<Int, TestError>()
        Deferred { () -> PassthroughSubject<Int, TestError> in
            subscriptions += 1
            return subject
        }
        .retry(3)
        .subscribe(subscriber)
        subscriber.cancel()
        subject.send(completion: .failure(.oops))
        #expect(subscriptions == 1)
        #expect(subscriber.completion == nil)
    }
}

extension Publishers.Sequence where Failure == Never {
    /// The same sequence typed with `TestError`, for building flaky publishers.
    func setFailureTypeCompat() -> Publishers.Sequence<Elements, TestError> {
        Publishers.Sequence(sequence: sequence)
    }
}
