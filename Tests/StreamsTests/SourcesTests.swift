import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite("Fail, Empty, Deferred, Result.Publisher, Optional.Publisher")
struct SourcesTests {
    @Test func failSendsTheFailureWithoutDemand() {
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        Fail<Int, TestError>(error: .oops).subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Empty"), .completion(.failure(.oops))])
        #expect(Fail(outputType: Int.self, failure: TestError.oops) == Fail<Int, TestError>(error: .oops))
    }

    @Test func emptyCompletesImmediatelyOrNever() {
        let immediate = TestSubscriber<Int, Never>(initialDemand: nil)
        Empty<Int, Never>().subscribe(immediate)
        #expect(immediate.events == [.subscription("Empty"), .completion(.finished)])
        let never = TestSubscriber<Int, Never>()
        Empty<Int, Never>(completeImmediately: false).subscribe(never)
        #expect(never.events == [.subscription("Empty")])
        #expect(Empty<Int, Never>() == Empty(completeImmediately: true, outputType: Int.self, failureType: Never.self))
        #expect(Empty<Int, Never>() != Empty(completeImmediately: false))
    }

    @Test func deferredMakesAPublisherPerSubscriber() {
        var made = 0
        let deferred = Deferred { () -> Just<Int> in
            made += 1
            return Just(made)
        }
        #expect(made == 0)
        let a = TestSubscriber<Int, Never>()
        let b = TestSubscriber<Int, Never>()
        deferred.subscribe(a)
        deferred.subscribe(b)
        #expect(a.values == [1])
        #expect(b.values == [2])
    }

    @Test func resultPublisher() {
        let success = TestSubscriber<Int, TestError>(initialDemand: nil)
        Result<Int, TestError>.success(1).publisher.subscribe(success)
        #expect(success.values.isEmpty)
        success.request(.max(1))
        #expect(success.events == [.subscription("Once"), .value(1), .completion(.finished)])
        let failure = TestSubscriber<Int, TestError>(initialDemand: nil)
        Result<Int, TestError>.failure(.oops).publisher.subscribe(failure)
        #expect(failure.completion == .failure(.oops))
        #expect(Result<Int, TestError>.Publisher(2) == Result<Int, TestError>.Publisher(.success(2)))
        #expect(Result<Int, TestError>.Publisher(TestError.oops).result == .failure(.oops))
    }

    @Test func optionalPublisher() {
        let some = TestSubscriber<Int, Never>()
        Optional(3).publisher.subscribe(some)
        #expect(some.events == [.subscription("Optional"), .value(3), .completion(.finished)])
        let none = TestSubscriber<Int, Never>(initialDemand: nil)
        Optional<Int>.none.publisher.subscribe(none)
        #expect(none.events == [.subscription("Empty"), .completion(.finished)])
    }
}

@Suite("Future")
struct FutureTests {
    @Test func runsTheClosureAtOnceExactlyOnce() {
        var runs = 0
        let future = Future<Int, Never> { promise in
            runs += 1
            promise(.success(1))
        }
        #expect(runs == 1)
        future.subscribe(TestSubscriber<Int, Never>())
        future.subscribe(TestSubscriber<Int, Never>())
        #expect(runs == 1)
    }

    @Test func lateSubscribersGetTheCachedResultAndTheFirstPromiseWins() {
        let future = Future<Int, TestError> { promise in
            promise(.success(1))
            promise(.success(2))
            promise(.failure(.oops))
        }
        let subscriber = TestSubscriber<Int, TestError>()
        future.subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Future"), .value(1), .completion(.finished)])
    }

    @Test func successWaitsForDemandFailureDoesNot() {
        var fulfil: Future<Int, TestError>.Promise?
        let future = Future<Int, TestError> { fulfil = $0 }
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        future.subscribe(subscriber)
        fulfil?(.success(5))
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.values == [5])

        let failing = Future<Int, TestError> { $0(.failure(.oops)) }
        let noDemand = TestSubscriber<Int, TestError>(initialDemand: nil)
        failing.subscribe(noDemand)
        #expect(noDemand.completion == .failure(.oops))
    }

    @Test func aResultArrivingLaterReachesEveryWaitingSubscriber() {
        var fulfil: Future<String, Never>.Promise?
        let future = Future<String, Never> { fulfil = $0 }
        let a = TestSubscriber<String, Never>()
        let b = TestSubscriber<String, Never>()
        future.subscribe(a)
        future.subscribe(b)
        fulfil?(.success("done"))
        #expect(a.values == ["done"])
        #expect(b.values == ["done"])
    }

    @Test func cancelledSubscriberGetsNothing() {
        var fulfil: Future<Int, Never>.Promise?
        let future = Future<Int, Never> { fulfil = $0 }
        let subscriber = TestSubscriber<Int, Never>()
        future.subscribe(subscriber)
        subscriber.cancel()
        fulfil?(.success(1))
        #expect(subscriber.values.isEmpty)
    }

    @Test func concurrentPromisesHaveExactlyOneWinner() {
        for _ in 0..<50 {
            var fulfil: Future<Int, Never>.Promise?
            let future = Future<Int, Never> { fulfil = $0 }
            let subscriber = TestSubscriber<Int, Never>()
            future.subscribe(subscriber)
            let promise = fulfil!
            DispatchQueue.concurrentPerform(iterations: 8) { promise(.success($0)) }
            #expect(subscriber.values.count == 1)
            #expect(subscriber.completions == [.finished])
        }
    }

    @Test func promiseFromAnotherThread() {
        let done = DispatchSemaphore(value: 0)
        let future = Future<Int, Never> { promise in
            DispatchQueue.global().async {
                promise(.success(7))
                done.signal()
            }
        }
        done.wait()
        let subscriber = TestSubscriber<Int, Never>()
        future.subscribe(subscriber)
        #expect(subscriber.values == [7])
    }
}
