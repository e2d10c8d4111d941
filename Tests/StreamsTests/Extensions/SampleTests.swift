import Dispatch
import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("sample(_:)")
struct SampleTests {
    @Test func eachTriggerValueSendsTheLatestNewValue() {
        let upstream = PassthroughSubject<Int, Never>()
        let trigger = PassthroughSubject<Void, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.sample(trigger).subscribe(subscriber)
        trigger.send(())
        upstream.send(1)
        upstream.send(2)
        trigger.send(())
        trigger.send(())
        upstream.send(3)
        trigger.send(())
        #expect(subscriber.values == [2, 3])
        #expect(subscriber.completion == nil)
        #expect(String(describing: subscriber.subscription!) == "Sample")
    }

    @Test func afterTheUpstreamFinishesTheNextTriggerValueSendsTheLastValueAndFinishes() {
        let upstream = PassthroughSubject<Int, Never>()
        let trigger = ManualUpstream<Void, Never>(failure: nil) { _ in () }
        let subscriber = TestSubscriber<Int, Never>()
        upstream.sample(trigger).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.completion == nil)
        trigger.send(0)
        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.finished])
        #expect(trigger.subscriptions.last?.cancels == 1)
    }

    @Test func afterTheUpstreamFinishesATriggerValueWithNothingNewFinishes() {
        let upstream = PassthroughSubject<Int, Never>()
        let trigger = PassthroughSubject<Void, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.sample(trigger).subscribe(subscriber)
        upstream.send(completion: .finished)
        trigger.send(())
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completions == [.finished])
    }

    @Test func theTriggerFinishingSendsTheLatestValueFinishesAndCancelsTheUpstream() {
        let upstream = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let trigger = PassthroughSubject<Void, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.sample(trigger).subscribe(subscriber)
        #expect(upstream.subscriptions.last?.requests == [.unlimited])
        upstream.send(5)
        trigger.send(completion: .finished)
        #expect(subscriber.values == [5])
        #expect(subscriber.completions == [.finished])
        #expect(upstream.subscriptions.last?.cancels == 1)
    }

    @Test func anUpstreamFailureFailsAtOnceAndCancelsTheTrigger() {
        let upstream = PassthroughSubject<Int, TestError>()
        let trigger = ManualUpstream<Void, TestError>(failure: .oops) { _ in () }
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.sample(trigger).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(.other))
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completions == [.failure(.other)])
        #expect(trigger.subscriptions.last?.cancels == 1)
    }

    @Test func aTriggerFailureFailsAndCancelsTheUpstream() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let trigger = PassthroughSubject<Void, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.sample(trigger).subscribe(subscriber)
        upstream.send(1)
        trigger.send(completion: .failure(.other))
        #expect(subscriber.completions == [.failure(.other)])
        #expect(upstream.subscriptions.last?.cancels == 1)
    }

    @Test func aTriggerValueWithoutDemandTakesNoSampleAndTheValueWaits() {
        let upstream = PassthroughSubject<Int, Never>()
        let trigger = PassthroughSubject<Void, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        upstream.sample(trigger).subscribe(subscriber)
        upstream.send(1)
        trigger.send(())
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        trigger.send(())
        upstream.send(2)
        trigger.send(())
        #expect(subscriber.values == [1])
        subscriber.request(.max(1))
        trigger.send(())
        #expect(subscriber.values == [1, 2])
    }

    @Test func cancelCancelsBoth() {
        let upstream = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let trigger = ManualUpstream<Void, Never>(failure: nil) { _ in () }
        let subscriber = TestSubscriber<Int, Never>()
        upstream.sample(trigger).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        #expect(upstream.subscriptions.last?.cancels == 1)
        #expect(trigger.subscriptions.last?.cancels == 1)
        trigger.send(0)
        #expect(subscriber.values.isEmpty)
    }

    @Test func aCancelFromInsideTheDownstreamStopsEverything() {
        let upstream = PassthroughSubject<Int, Never>()
        let trigger = PassthroughSubject<Void, Never>()
        var cancellable: AnyCancellable?
        var received: [Int] = []
        cancellable = upstream.sample(trigger).sink { value in
            received.append(value)
            cancellable?.cancel()
        }
        upstream.send(1)
        trigger.send(())
        upstream.send(2)
        trigger.send(())
        #expect(received == [1])
        _ = cancellable
    }

    @Test func anUpstreamFailureDuringADeliveryWaitsForItToReturn() {
        let upstream = PassthroughSubject<Int, TestError>()
        let trigger = PassthroughSubject<Void, TestError>()
        let events = Log<String>()
        let cancellable = upstream.sample(trigger).sink(
            receiveCompletion: { events.append($0 == .finished ? "finished" : "failed") },
            receiveValue: { value in
                events.append("value \(value)")
                upstream.send(completion: .failure(.oops))
                events.append("returned")
            })
        upstream.send(1)
        trigger.send(())
        #expect(events.items == ["value 1", "returned", "failed"])
        _ = cancellable
    }

    @Test func theTriggerFinishingDuringADeliveryFinishesOnceItReturns() {
        let upstream = PassthroughSubject<Int, Never>()
        // Unlike a subject, it delivers its completion from inside the value being delivered.
        let trigger = ManualUpstream<Void, Never>(failure: nil) { _ in () }
        let events = Log<String>()
        let cancellable = upstream.sample(trigger).sink(
            receiveCompletion: { _ in events.append("finished") },
            receiveValue: { value in
                events.append("value \(value)")
                trigger.finish()
                events.append("returned")
            })
        upstream.send(1)
        trigger.send(0)
        #expect(events.items == ["value 1", "returned", "finished"])
        _ = cancellable
    }

    @Test func ticksOnVirtualTime() {
        let scheduler = TestScheduler()
        let upstream = PassthroughSubject<Int, Never>()
        let ticks = (1...3).publisher.flatMap(maxPublishers: .max(1)) {
            Just($0).delay(for: .seconds(1), scheduler: scheduler)
        }
        let subscriber = TestSubscriber<Int, Never>()
        upstream.sample(ticks).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        scheduler.advance(by: .seconds(1))
        upstream.send(2)
        upstream.send(3)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1, 3])
        #expect(subscriber.completions == [.finished])
    }

    @Test func valuesAndTriggersFromOtherThreadsNeverOverlap() {
        for _ in 0..<100 {
            let upstream = PassthroughSubject<Int, Never>()
            let trigger = PassthroughSubject<Void, Never>()
            let detector = OverlapDetector()
            let received = Locked<[Int]>([])
            let cancellable = upstream.sample(trigger).sink { value in
                detector.run { received.withLock { $0.append(value) } }
            }
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    for value in 0..<100 { upstream.send(value) }
                } else {
                    for _ in 0..<100 { trigger.send(()) }
                }
            }
            let values = received.withLock { $0 }
            #expect(detector.overlaps == 0)
            #expect(values == values.sorted() && Set(values).count == values.count)
            cancellable.cancel()
        }
    }
}
