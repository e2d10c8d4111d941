import Streams
import StreamsTesting
import Testing

@Suite("collect(_:options:) by time")
struct CollectByTimeTests {
    @Test func byTimeSendsWhatEachIntervalCollected() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(100))) { subject.send(1) }
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(200))) { subject.send(2) }
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(1_500))) { subject.send(3) }
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(3_500))) { subject.send(completion: .finished) }
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [[1, 2]])
        scheduler.advance(by: .seconds(2))
        // Nothing collected in the third interval: no empty array.
        #expect(subscriber.values == [[1, 2], [3]])
        scheduler.advance(by: .seconds(1))
        #expect(
            subscriber.events == [
                .subscription("CollectByTime"), .value([1, 2]), .value([3]), .completion(.finished),
            ])
        // The interval timer is gone with the completion.
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func whatIsLeftGoesBeforeFinishedAndAFailureDiscardsIt() {
        let scheduler = TestScheduler()
        let finishing = TestSubscriber<[Int], Never>()
        [1, 2, 3].publisher.collect(.byTime(scheduler, .seconds(10))).subscribe(finishing)
        scheduler.advance()
        #expect(finishing.events == [.subscription("CollectByTime"), .value([1, 2, 3]), .completion(.finished)])

        let subject = PassthroughSubject<Int, TestError>()
        let failing = TestSubscriber<[Int], TestError>()
        subject.collect(.byTime(scheduler, .seconds(10))).subscribe(failing)
        subject.send(1)
        subject.send(completion: .failure(.oops))
        scheduler.advance(by: .seconds(20))
        #expect(failing.events == [.subscription("CollectByTime"), .completion(.failure(.oops))])
    }

    @Test func byTimeOrCountSendsAFullGroupAtOnce() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        subject.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        scheduler.advance()
        #expect(subscriber.values == [[1, 2]])
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [[1, 2], [3]])
    }

    /// As in Combine: upstream is asked for one value at a time, when subscribed and for each
    /// later downstream request, and one more is returned per value.
    @Test func groupsWaitForDemandAndUpstreamIsAskedForOneValueAtATime() {
        let scheduler = TestScheduler()
        let requests = Log<Subscribers.Demand>()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1))
        subject.handleEvents(receiveRequest: { requests.append($0) })
            .collect(.byTimeOrCount(scheduler, .seconds(1), 3))
            .subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .seconds(1))
        subject.send(2)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [[1]])
        subscriber.request(.max(1))
        scheduler.advance()
        #expect(subscriber.values == [[1], [2]])
        // One when subscribed (the request made as it subscribed only adds demand), one per later
        // downstream request, and one returned per value (which handleEvents reports as a
        // request too).
        #expect(requests.items == Array(repeating: .max(1), count: 4))

        let oneByOne = Log<Subscribers.Demand>()
        let byTime = TestSubscriber<[Int], Never>(initialDemand: .max(1))
        PassthroughSubject<Int, Never>().handleEvents(receiveRequest: { oneByOne.append($0) })
            .collect(.byTime(scheduler, .seconds(1)))
            .subscribe(byTime)
        byTime.request(.max(1))
        #expect(oneByOne.items == [.max(1), .max(1)])
    }

    @Test func aRequestDoesNotCutAnIntervalShort() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1))
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        subject.send(1)
        subscriber.request(.max(1))
        scheduler.advance(by: .milliseconds(500))
        // Demand was there all along: the group still waits for the end of its interval.
        #expect(subscriber.values.isEmpty)
        subject.send(2)
        scheduler.advance(by: .milliseconds(500))
        #expect(subscriber.values == [[1, 2]])
    }

    @Test func cancelStopsTheTimerAndUpstream() {
        let scheduler = TestScheduler()
        let cancels = Log<Void>()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        subject.handleEvents(receiveCancel: { cancels.append(()) })
            .collect(.byTime(scheduler, .seconds(1)))
            .subscribe(subscriber)
        subject.send(1)
        subscriber.cancel()
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.values.isEmpty)
        #expect(cancels.items.count == 1)
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func aCountBelowOneTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Just(1).collect(.byTimeOrCount(ImmediateScheduler.shared, 1, 0))
        }
    }
}
