import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite("prefix(untilOutputFrom:), drop(untilOutputFrom:)")
struct UntilOutputTests {
    @Test func prefixPassesValuesUntilTheTriggerFires() {
        let cancels = Log<String>()
        let source = PassthroughSubject<Int, Never>()
        let stop = PassthroughSubject<Void, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        source.handleEvents(receiveCancel: { cancels.append("source") })
            .prefix(untilOutputFrom: stop.handleEvents(receiveCancel: { cancels.append("trigger") }))
            .subscribe(subscriber)
        source.send(1)
        source.send(2)
        stop.send(())
        source.send(3)
        // As in Combine, the subscription has no description of its own.
        #expect(subscriber.subscriptionCount == 1)
        #expect(Array(subscriber.events.dropFirst()) == [.value(1), .value(2), .completion(.finished)])
        #expect(cancels.items.sorted() == ["source", "trigger"])
    }

    @Test func prefixIgnoresATriggerThatEndsWithoutAValue() {
        let source = PassthroughSubject<Int, Never>()
        let stop = PassthroughSubject<Void, TestError>()
        let subscriber = TestSubscriber<Int, Never>()
        source.prefix(untilOutputFrom: stop).subscribe(subscriber)
        stop.send(completion: .failure(.oops))
        source.send(1)
        source.send(completion: .finished)
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .finished)
    }

    @Test func dropDropsUntilTheTriggerFiresAndAsksForReplacements() {
        let requests = Log<Subscribers.Demand>()
        let source = PassthroughSubject<Int, Never>()
        let start = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        source.handleEvents(receiveRequest: { requests.append($0) })
            .drop(untilOutputFrom: start)
            .subscribe(subscriber)
        source.send(1)
        start.send("go")
        source.send(2)
        source.send(3)
        source.send(4)
        source.send(completion: .finished)
        #expect(subscriber.values == [2, 3])
        #expect(subscriber.completion == .finished)
        #expect(requests.items == [.max(2), .max(1)])
    }

    @Test func dropFailsWhenTheTriggerFails() {
        let source = PassthroughSubject<Int, TestError>()
        let start = PassthroughSubject<Void, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        source.drop(untilOutputFrom: start).subscribe(subscriber)
        start.send(completion: .failure(.other))
        source.send(1)
        #expect(subscriber.events == [.subscription("DropUntilOutput"), .completion(.failure(.other))])
    }

    @Test func aTriggerDuringADeliveryWaitsForItToReturn() {
        let source = PassthroughSubject<Int, Never>()
        let stop = PassthroughSubject<Void, Never>()
        let order = Log<String>()
        let cancellable = source.prefix(untilOutputFrom: stop).sink(
            receiveCompletion: { _ in order.append("finished") },
            receiveValue: { value in
                order.append("begin \(value)")
                stop.send(())
                order.append("end \(value)")
            })
        source.send(1)
        source.send(2)
        #expect(order.items == ["begin 1", "end 1", "finished"])
        cancellable.cancel()
    }

    @Test func triggerAndValuesFromOtherThreadsNeverOverlap() {
        for _ in 0..<100 {
            let source = PassthroughSubject<Int, Never>()
            let stop = PassthroughSubject<Void, Never>()
            let detector = OverlapDetector()
            let completions = Locked(0)
            let cancellable = source.prefix(untilOutputFrom: stop).sink(
                receiveCompletion: { _ in detector.run { completions.withLock { $0 += 1 } } },
                receiveValue: { _ in detector.run {} })
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    for value in 0..<100 { source.send(value) }
                } else {
                    stop.send(())
                }
            }
            #expect(detector.overlaps == 0)
            #expect(completions.withLock { $0 } == 1)
            cancellable.cancel()
        }
    }
}
