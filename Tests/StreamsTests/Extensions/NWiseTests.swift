import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("nwise, pairwise")
struct NWiseTests {
    @Test func nwiseSlidesByOneValue() {
        let subscriber = TestSubscriber<[Int], Never>()
        [1, 2, 3, 4].publisher.nwise(3).subscribe(subscriber)
        #expect(subscriber.values == [[1, 2, 3], [2, 3, 4]])
        #expect(subscriber.completion == .finished)
    }

    @Test func aWindowNeverFilledSendsNothing() {
        let subscriber = TestSubscriber<[Int], Never>()
        [1, 2].publisher.nwise(3).subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == .finished)
    }

    @Test func nwiseOfOneWrapsEachValue() {
        let subscriber = TestSubscriber<[Int], Never>()
        [1, 2].publisher.nwise(1).subscribe(subscriber)
        #expect(subscriber.values == [[1], [2]])
    }

    @Test func nwiseOfZeroTraps() async {
        await #expect(processExitsWith: .failure) { _ = Just(1).nwise(0) }
    }

    @Test func pairwiseSendsEachValueWithThePreviousOne() {
        let subject = PassthroughSubject<Int, TestError>()
        var pairs: [String] = []
        var completion: Subscribers.Completion<TestError>?
        let cancellable = subject.pairwise().sink(receiveCompletion: { completion = $0 }) { pairs.append("\($0.0)\($0.1)") }
        subject.send(1)
        subject.send(2)
        subject.send(4)
        subject.send(completion: .failure(.oops))
        #expect(pairs == ["12", "24"])
        #expect(completion == .failure(.oops))
        cancellable.cancel()
    }

    @Test func demandCountsWindowsAndFillingValuesAskForMore() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .max(1))
        upstream.nwise(2).subscribe(subscriber)
        #expect(String(describing: subscriber.subscription!) == "NWise")
        #expect(upstream.subscriptions.last?.requests == [.max(1)])
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .none)
        #expect(subscriber.values == [[1, 2]])
        subscriber.request(.max(2))
        #expect(upstream.subscriptions.last?.requests == [.max(1), .max(2)])
    }

    @Test func nothingAfterCancel() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        upstream.ignoresCancel = true
        let subscriber = TestSubscriber<[Int], TestError>()
        upstream.nwise(2).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        subscriber.cancel()
        upstream.send(3)
        upstream.finish()
        #expect(subscriber.values == [[1, 2]])
        #expect(subscriber.completion == nil)
        #expect(upstream.subscriptions.last?.cancels == 1)
    }

    @Test func eachSubscriptionHasItsOwnWindow() {
        let windows = [1, 2, 3].publisher.nwise(2)
        let first = TestSubscriber<[Int], Never>()
        let second = TestSubscriber<[Int], Never>()
        windows.subscribe(first)
        windows.subscribe(second)
        #expect(first.values == [[1, 2], [2, 3]])
        #expect(second.values == [[1, 2], [2, 3]])
    }
}
