@testable import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("Collection combineLatest, zip, merge")
struct CollectionFanInTests {
    // MARK: combineLatest

    @Test func combineLatestSendsAnArrayOnceEachHasAValue() {
        let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
        let subscriber = TestSubscriber<[Int], Never>()
        subjects.combineLatest().subscribe(subscriber)
        subjects[0].send(1)
        subjects[2].send(3)
        #expect(subscriber.values.isEmpty)
        subjects[1].send(2)
        subjects[0].send(10)
        #expect(subscriber.values == [[1, 2, 3], [10, 2, 3]])
        #expect(String(describing: subscriber.subscription!) == "CombineLatest")
    }

    @Test func anArrayTheDownstreamKeepsIsNotChangedByLaterValues() {
        // The operator keeps one typed array and sets a slot per value; an array already
        // delivered and still kept downstream is a value, not a view of that array.
        let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
        var kept: [[Int]] = []
        let cancellable = subjects.combineLatest().sink { kept.append($0) }
        for (index, subject) in subjects.enumerated() { subject.send(index) }
        let first = kept[0]
        subjects[1].send(10)
        subjects[1].send(11)
        subjects[2].send(12)
        #expect(first == [0, 1, 2])
        #expect(kept == [[0, 1, 2], [0, 10, 2], [0, 11, 2], [0, 11, 12]])
        cancellable.cancel()
    }

    @Test func combineLatestFinishesWhenAllHaveFinishedAndFailsOnTheFirstFailure() {
        let subjects = (0..<2).map { _ in PassthroughSubject<Int, TestError>() }
        let finished = TestSubscriber<[Int], TestError>()
        subjects.combineLatest().subscribe(finished)
        subjects[0].send(1)
        subjects[0].send(completion: .finished)
        subjects[1].send(2)
        #expect(finished.completion == nil)
        subjects[1].send(completion: .finished)
        #expect(finished.values == [[1, 2]])
        #expect(finished.completions == [.finished])

        let upstreams = (0..<2).map { _ in ManualUpstream<Int, TestError>(failure: .oops) { $0 } }
        let failed = TestSubscriber<[Int], TestError>()
        upstreams.combineLatest().subscribe(failed)
        upstreams[1].fail()
        #expect(failed.completions == [.failure(.oops)])
        #expect(upstreams[0].subscriptions.last?.cancels == 1)
    }

    @Test func combineLatestOfNoPublishersFinishesAtOnce() {
        let subscriber = TestSubscriber<[Int], Never>()
        [Just<Int>]().combineLatest().subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completions == [.finished])
    }

    @Test func combineLatestAsksEveryPublisherForTheDownstreamsDemandAndDropsWhatIsNotDemanded() {
        let upstreams = (0..<2).map { _ in ManualUpstream<Int, Never>(failure: nil) { $0 } }
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1))
        upstreams.combineLatest().subscribe(subscriber)
        #expect(upstreams.map { $0.subscriptions.last?.requests } == [[.max(1)], [.max(1)]])
        upstreams[0].send(1)
        upstreams[1].send(2)
        upstreams[1].send(3)
        #expect(subscriber.values == [[1, 2]])
        subscriber.request(.max(1))
        upstreams[0].send(4)
        #expect(subscriber.values == [[1, 2], [4, 3]])
    }

    @Test func combineLatestCancelCancelsEveryPublisher() {
        let upstreams = (0..<3).map { _ in ManualUpstream<Int, Never>(failure: nil) { $0 } }
        let subscriber = TestSubscriber<[Int], Never>()
        upstreams.combineLatest().subscribe(subscriber)
        subscriber.cancel()
        #expect(upstreams.map { $0.subscriptions.last?.cancels } == [1, 1, 1])
    }

    @Test func combineLatestWithOthersPutsThisPublisherFirst() {
        let subscriber = TestSubscriber<[Int], Never>()
        Just(1).combineLatest(with: Just(2), Just(3)).subscribe(subscriber)
        #expect(subscriber.values == [[1, 2, 3]])
        #expect(subscriber.completions == [.finished])
    }

    @Test func combineLatestAtTenThousandPublishers() {
        let count = 10_000
        let upstreams = (0..<count).map { _ in ManualUpstream<Int, Never>(failure: nil) { $0 } }
        let subscriber = TestSubscriber<[Int], Never>()
        upstreams.combineLatest().subscribe(subscriber)
        // One subscription and one request each, made in a loop.
        #expect(upstreams.allSatisfy { $0.subscriptions.count == 1 && $0.subscriptions[0].requests == [.unlimited] })
        for (index, upstream) in upstreams.enumerated() { upstream.send(index) }
        #expect(subscriber.values.count == 1)
        #expect(subscriber.values.first == Array(0..<count))
        upstreams[5_000].send(-1)
        upstreams[9_999].send(-2)
        #expect(subscriber.values.count == 3)
        #expect(subscriber.values.last?[5_000] == -1)
        #expect(subscriber.values.last?[9_999] == -2)
        // No request follows a value: the downstream asked for unlimited once.
        #expect(upstreams.allSatisfy { $0.subscriptions[0].requests == [.unlimited] })
        for upstream in upstreams { upstream.finish() }
        #expect(subscriber.completions == [.finished])
    }

    @Test func combineLatestOfTenThousandSynchronousPublishers() {
        let subscriber = TestSubscriber<[Int], Never>()
        (0..<10_000).map { Just($0) }.combineLatest().subscribe(subscriber)
        #expect(subscriber.values == [Array(0..<10_000)])
        #expect(subscriber.completions == [.finished])
    }

    // MARK: zip

    @Test func zipPairsValuesByPosition() {
        let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
        let subscriber = TestSubscriber<[Int], Never>()
        subjects.zip().subscribe(subscriber)
        subjects[0].send(1)
        subjects[0].send(2)
        subjects[1].send(10)
        subjects[2].send(100)
        subjects[1].send(20)
        #expect(subscriber.values == [[1, 10, 100]])
        subjects[2].send(200)
        #expect(subscriber.values == [[1, 10, 100], [2, 20, 200]])
        #expect(String(describing: subscriber.subscription!) == "Zip")
    }

    @Test func zipFinishesWhenAPublisherHasFinishedWithNothingLeftToPair() {
        let subjects = (0..<2).map { _ in PassthroughSubject<Int, TestError>() }
        let subscriber = TestSubscriber<[Int], TestError>()
        subjects.zip().subscribe(subscriber)
        subjects[0].send(1)
        subjects[0].send(completion: .finished)
        #expect(subscriber.completion == nil)
        subjects[1].send(2)
        #expect(subscriber.values == [[1, 2]])
        #expect(subscriber.completions == [.finished])
    }

    @Test func zipOfNoPublishersFinishesAtOnce() {
        let subscriber = TestSubscriber<[Int], Never>()
        [Just<Int>]().zip().subscribe(subscriber)
        #expect(subscriber.completions == [.finished])
    }

    @Test func zipReturnsTheDownstreamsDemandForATuple() {
        let upstreams = (0..<2).map { _ in ManualUpstream<Int, Never>(failure: nil) { $0 } }
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1), demandPerValue: .max(1))
        upstreams.zip().subscribe(subscriber)
        #expect(upstreams.map { $0.subscriptions.last?.requests } == [[.max(1)], [.max(1)]])
        #expect(upstreams[0].send(1) == .none)
        #expect(upstreams[1].send(2) == .max(1))
        #expect(upstreams[0].subscriptions.last?.requests == [.max(1), .max(1)])
        #expect(subscriber.values == [[1, 2]])
    }

    @Test func zipWithOthersPutsThisPublisherFirst() {
        let subscriber = TestSubscriber<[Int], Never>()
        [1, 2].publisher.zip(with: [3, 4].publisher, [5].publisher).subscribe(subscriber)
        #expect(subscriber.values == [[1, 3, 5]])
        #expect(subscriber.completions == [.finished])
    }

    @Test func aZipValueThatCompletesNoTupleCountsNoOtherQueue() {
        var table = UpstreamTable(count: 10_000, mode: .zip)
        #expect(table.missing == 10_000)
        #expect(table.enqueue(1, at: 3) == nil)
        #expect(table.enqueue(2, at: 3) == nil)
        #expect(table.missing == 9_999)
        for index in 0..<10_000 where index != 3 { _ = table.enqueue(0, at: index) }
        #expect(table.missing == 9_999)
        #expect(table.queues[3].count == 1)
    }

    @Test func zipAtTenThousandPublishers() {
        let count = 10_000
        let upstreams = (0..<count).map { _ in ManualUpstream<Int, Never>(failure: nil) { $0 } }
        let subscriber = TestSubscriber<[Int], Never>()
        upstreams.zip().subscribe(subscriber)
        #expect(subscriber.subscriptionCount == 1)
        #expect(upstreams.allSatisfy { $0.subscriptions.count == 1 && $0.subscriptions[0].requests == [.unlimited] })
        for round in 0..<3 {
            for (index, upstream) in upstreams.enumerated() { upstream.send(round * count + index) }
        }
        #expect(subscriber.values.count == 3)
        #expect(subscriber.values.last == Array(2 * count..<3 * count))
        upstreams[0].finish()
        #expect(subscriber.completions == [.finished])
        #expect(upstreams[1...].allSatisfy { $0.subscriptions[0].cancels == 1 })
    }

    @Test func zipOfTenThousandSynchronousPublishers() {
        let subscriber = TestSubscriber<[Int], Never>()
        (0..<10_000).map { [$0, -$0].publisher }.zip().subscribe(subscriber)
        #expect(subscriber.values == [Array(0..<10_000), (0..<10_000).map { -$0 }])
        #expect(subscriber.completions == [.finished])
    }

    // MARK: merge

    @Test func mergePassesOnEveryValueAsItArrives() {
        let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
        let merged: AnyPublisher<Int, Never> = subjects.merge()
        let subscriber = TestSubscriber<Int, Never>()
        merged.subscribe(subscriber)
        subjects[2].send(3)
        subjects[0].send(1)
        for subject in subjects { subject.send(completion: .finished) }
        #expect(subscriber.values == [3, 1])
        #expect(subscriber.completions == [.finished])
    }

    @Test func mergeOfNoPublishersFinishesAtOnce() {
        let subscriber = TestSubscriber<Int, Never>()
        [PassthroughSubject<Int, Never>]().merge().subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completions == [.finished])
    }

    @Test func mergeAtTenThousandPublishers() {
        let count = 10_000
        let upstreams = (0..<count).map { _ in ManualUpstream<Int, Never>(failure: nil) { $0 } }
        let subscriber = TestSubscriber<Int, Never>()
        upstreams.merge().subscribe(subscriber)
        #expect(upstreams.allSatisfy { $0.subscriptions.count == 1 && $0.subscriptions[0].requests == [.unlimited] })
        for (index, upstream) in upstreams.enumerated() { upstream.send(index) }
        #expect(subscriber.values == Array(0..<count))
        #expect(upstreams.allSatisfy { $0.subscriptions[0].requests == [.unlimited] })
        for upstream in upstreams { upstream.finish() }
        #expect(subscriber.completions == [.finished])
    }

    @Test func mergeOfTenThousandSynchronousPublishers() {
        let subscriber = TestSubscriber<Int, Never>()
        (0..<10_000).map { Just($0) }.merge().subscribe(subscriber)
        #expect(subscriber.values == Array(0..<10_000))
        #expect(subscriber.completions == [.finished])
    }
}
