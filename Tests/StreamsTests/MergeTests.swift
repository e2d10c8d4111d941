import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("merge")
struct MergeTests {
    @Test func interleavesValuesAndFinishesWhenAllFinish() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        a.merge(with: b).subscribe(subscriber)
        a.send(1)
        b.send(2)
        a.send(3)
        a.send(completion: .finished)
        #expect(subscriber.completion == nil)
        b.send(4)
        b.send(completion: .finished)
        #expect(subscriber.events == [.subscription("Merge"), .value(1), .value(2), .value(3), .value(4), .completion(.finished)])
    }

    @Test func firstFailureCancelsTheOthers() {
        let cancels = Log<Void>()
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        a.merge(with: b.handleEvents(receiveCancel: { cancels.append(()) })).subscribe(subscriber)
        a.send(completion: .failure(.oops))
        b.send(1)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == .failure(.oops))
        #expect(cancels.items.count == 1)
    }

    @Test func valuesBeyondDemandWaitInOrder() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        [1, 2].publisher.merge(with: [3, 4].publisher).subscribe(subscriber)
        // Each upstream was asked for one value: the second upstream's waits in the buffer.
        #expect(subscriber.values == [1])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 3, 2])
        subscriber.request(.max(5))
        #expect(subscriber.values == [1, 3, 2, 4])
        #expect(subscriber.completion == .finished)
    }

    @Test func demandReturnedFromReceiveReachesTheUpstreams() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        (1...3).publisher.merge(with: (4...6).publisher).subscribe(subscriber)
        #expect(Set(subscriber.values) == Set(1...6))
        #expect(subscriber.completion == .finished)
    }

    @Test func mergeThreeAndMany() {
        let three = TestSubscriber<Int, Never>()
        Just(1).merge(with: Just(2), Just(3)).subscribe(three)
        #expect(three.values == [1, 2, 3])
        let many = TestSubscriber<Int, Never>()
        Publishers.MergeMany([Just(1), Just(2), Just(3), Just(4)]).merge(with: Just(5)).subscribe(many)
        #expect(many.values == [1, 2, 3, 4, 5])
        let none = TestSubscriber<Int, Never>()
        Publishers.MergeMany([Just<Int>]()).subscribe(none)
        #expect(none.completion == .finished)
    }

    @Test func concurrentUpstreamsDeliverEveryValueOnceAndSerially() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let detector = OverlapDetector()
        let subscriber = TestSubscriber<Int, Never>(onValue: { _ in detector.run() })
        a.merge(with: b).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            let target = thread.isMultiple(of: 2) ? a : b
            for i in 0..<1_000 { target.send(thread * 1_000 + i) }
        }
        #expect(subscriber.values.count == 8_000)
        #expect(Set(subscriber.values).count == 8_000)
        #expect(detector.overlaps == 0)
    }

    @Test func cancelStopsEverything() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        a.merge(with: b).subscribe(subscriber)
        subscriber.cancel()
        a.send(1)
        b.send(2)
        #expect(subscriber.values.isEmpty)
    }
}
