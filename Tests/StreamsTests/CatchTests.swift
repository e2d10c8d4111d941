import Streams
import StreamsTesting
import Testing

@Suite("catch, tryCatch")
struct CatchTests {
    @Test func replacesTheFailedUpstreamUnderOneSubscription() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.catch { _ in [10, 11].publisher }.subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription("Catch"), .value(1), .value(10), .value(11), .completion(.finished)])
    }

    @Test func outstandingDemandCarriesOverToTheReplacement() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        subject.catch { _ in (10...20).publisher }.subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(.oops))
        #expect(subscriber.values == [1, 10, 11])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 10, 11, 12])
    }

    @Test func finishedPassesThroughWithoutCallingTheHandler() {
        let calls = Log<TestError>()
        let subscriber = TestSubscriber<Int, Never>()
        [1].publisher.setFailureType(to: TestError.self)
            .catch { error -> Just<Int> in
                calls.append(error); return Just(0)
            }
            .subscribe(subscriber)
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .finished)
        #expect(calls.items.isEmpty)
    }

    @Test func theReplacementsFailureEndsTheStream() {
        let subscriber = TestSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: .oops).catch { _ in Fail<Int, TestError>(error: .other) }.subscribe(subscriber)
        #expect(subscriber.completion == .failure(.other))
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func cancelStopsTheReplacement() {
        let first = PassthroughSubject<Int, TestError>()
        let second = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        first.catch { _ in second }.subscribe(subscriber)
        first.send(completion: .failure(.oops))
        second.send(1)
        subscriber.cancel()
        second.send(2)
        #expect(subscriber.values == [1])
    }

    @Test func releasesTheHandlerOnCancel() {
        weak var weakToken: Tracked?
        let subscriber = TestSubscriber<Int, Never>()
        do {
            let token = Tracked()
            weakToken = token
            PassthroughSubject<Int, TestError>()
                .catch { _ -> Just<Int> in
                    _ = token; return Just(0)
                }
                .subscribe(subscriber)
        }
        #expect(weakToken != nil)
        subscriber.cancel()
        #expect(weakToken == nil)
    }

    @Test func tryCatchUsesTheReplacementOrFailsWithTheThrownError() {
        let recovered = TestSubscriber<Int, any Error>()
        Fail<Int, TestError>(error: .oops)
            .tryCatch { error -> Just<Int> in
                guard error == .oops else { throw TestError.other }
                return Just(5)
            }
            .subscribe(recovered)
        #expect(recovered.values == [5])
        if case .finished = recovered.completion {} else { Issue.record("expected finished") }

        let thrown = TestSubscriber<Int, any Error>()
        Fail<Int, TestError>(error: .other)
            .tryCatch { _ -> Just<Int> in throw TestError.oops }
            .subscribe(thrown)
        if case .failure(let error) = thrown.completion {
            #expect(error as? TestError == .oops)
        } else {
            Issue.record("expected the thrown error")
        }
        #expect(String(describing: thrown.subscription!) == "TryCatch")
    }

    @Test func requestingNoneTraps() async {
        await #expect(processExitsWith: .failure) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
            PassthroughSubject<Int, TestError>().catch { _ in Just(2) }.subscribe(subscriber)
            subscriber.request(.none)
        }
    }
}
