import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("flatMapBatches(of:)")
struct FlatMapBatchesTests {
    @Test func sendsEachBatchsResultsInOrderOneBatchAfterAnother() {
        let subscriber = TestSubscriber<[Int], Never>()
        (1...5).map { Just($0) }.flatMapBatches(of: 2).subscribe(subscriber)
        #expect(subscriber.values == [[1, 2], [3, 4], [5]])
        #expect(subscriber.completions == [.finished])
    }

    @Test func theNextBatchIsSubscribedOnlyWhenTheOneBeforeHasFinished() {
        let publishers = (0..<3).map { _ in ManualUpstream<Int, TestError>(failure: .oops) { $0 } }
        let subscriber = TestSubscriber<[Int], TestError>()
        publishers.flatMapBatches(of: 2).subscribe(subscriber)
        #expect(publishers.map(\.subscriptions.count) == [1, 1, 0])
        publishers[0].send(10)
        publishers[0].finish()
        // The batch is zipped: it ends once a finished publisher has nothing left to pair.
        #expect(publishers[2].subscriptions.isEmpty)
        publishers[1].send(20)
        #expect(subscriber.values == [[10, 20]])
        #expect(publishers[2].subscriptions.count == 1)
        publishers[2].send(30)
        publishers[2].finish()
        #expect(subscriber.values == [[10, 20], [30]])
        #expect(subscriber.completions == [.finished])
    }

    @Test func aFailureFailsAtOnceAndLaterBatchesNeverStart() {
        let publishers = (0..<3).map { _ in ManualUpstream<Int, TestError>(failure: .oops) { $0 } }
        let subscriber = TestSubscriber<[Int], TestError>()
        publishers.flatMapBatches(of: 1).subscribe(subscriber)
        publishers[0].fail()
        #expect(subscriber.completions == [.failure(.oops)])
        #expect(publishers[1].subscriptions.isEmpty)
        #expect(publishers[2].subscriptions.isEmpty)
    }

    @Test func anEmptyCollectionFinishesAtOnce() {
        let subscriber = TestSubscriber<[Int], Never>()
        [Just<Int>]().flatMapBatches(of: 3).subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completions == [.finished])
    }

    @Test func aBatchLargerThanTheCollectionIsOneBatch() {
        let subscriber = TestSubscriber<[Int], Never>()
        [Just(1), Just(2)].flatMapBatches(of: 10).subscribe(subscriber)
        #expect(subscriber.values == [[1, 2]])
    }

    @Test func batchesWaitForDemand() {
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1))
        (1...4).map { Just($0) }.flatMapBatches(of: 2).subscribe(subscriber)
        #expect(subscriber.values == [[1, 2]])
        subscriber.request(.max(1))
        #expect(subscriber.values == [[1, 2], [3, 4]])
        #expect(subscriber.completions == [.finished])
    }

    @Test func cancelCancelsTheRunningBatch() {
        let publishers = (0..<2).map { _ in ManualUpstream<Int, Never>(failure: nil) { $0 } }
        let subscriber = TestSubscriber<[Int], Never>()
        publishers.flatMapBatches(of: 2).subscribe(subscriber)
        subscriber.cancel()
        #expect(publishers.map { $0.subscriptions.last?.cancels } == [1, 1])
    }

    @Test func aBatchSizeBelowOneStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = [Just(1)].flatMapBatches(of: 0)
        }
    }
}
