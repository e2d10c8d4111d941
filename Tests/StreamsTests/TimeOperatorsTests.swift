import Streams
import StreamsTesting
import Testing

@Suite("debounce")
struct DebounceTests {
    @Test func sendsTheLastValueOfEachBurstAfterTheQuietPeriod() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>()
        subject.debounce(for: .milliseconds(800), scheduler: scheduler).subscribe(subscriber)
        subject.send("j")
        scheduler.advance(by: .milliseconds(300))
        subject.send("jo")
        scheduler.advance(by: .milliseconds(799))
        #expect(subscriber.values.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.values == ["jo"])
        subject.send("joh")
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == ["jo", "joh"])
        #expect(scheduler.scheduledCount == 0)
        #expect(String(describing: subscriber.subscription!) == "Debounce")
    }

    @Test func dropsTheValueWhenThereIsNoDemand() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .seconds(1))
        subject.send(2)
        scheduler.advance(by: .seconds(1))
        subscriber.request(.max(1))
        subject.send(3)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1, 3])
    }

    @Test func discardsThePendingValueOnFinishAsCombineDoes() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .finished)
        #expect(subscriber.completion == nil)
        scheduler.advance()
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == .finished)
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.values.isEmpty)
    }

    @Test func discardsThePendingValueOnFailure() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        subject.debounce(for: .seconds(1), scheduler: scheduler, deliversPendingValueOnFinish: true).subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(.oops))
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == .failure(.oops))
    }

    @Test func optInDeliversThePendingValueBeforeFinished() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.debounce(for: .seconds(1), scheduler: scheduler, deliversPendingValueOnFinish: true).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        scheduler.advance()
        #expect(subscriber.values == [2])
        #expect(subscriber.completion == .finished)
    }

    @Test func cancelRemovesTheTimerAndSendsNothing() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        #expect(scheduler.scheduledCount == 1)
        subscriber.cancel()
        #expect(scheduler.scheduledCount == 0)
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.values.isEmpty)
    }
}

@Suite("throttle")
struct ThrottleTests {
    @Test func latestSendsTheNewestValueOfEachWindow() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        subject.send(1)
        scheduler.advance()
        #expect(subscriber.values == [1])
        subject.send(2)
        subject.send(3)
        scheduler.advance(by: .milliseconds(999))
        #expect(subscriber.values == [1])
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.values == [1, 3])
        #expect(String(describing: subscriber.subscription!) == "Throttle")
    }

    @Test func firstSendsTheFirstValueOfEachWindow() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: false).subscribe(subscriber)
        subject.send(1)
        scheduler.advance()
        subject.send(2)
        subject.send(3)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1, 2])
    }

    @Test func aPendingValueIsSentBeforeTheCompletion() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        subject.send(1)
        scheduler.advance()
        subject.send(2)
        subject.send(completion: .finished)
        // As in Combine, the completion waits behind the pending value, which
        // goes at the end of its window.
        scheduler.advance(by: .milliseconds(999))
        #expect(subscriber.completion == nil)
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .finished)
    }

    @Test func valuesWithoutDemandAreDropped() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        subject.send(1)
        scheduler.advance()
        subscriber.request(.max(1))
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values.isEmpty)
        subject.send(2)
        scheduler.advance()
        #expect(subscriber.values == [2])
    }
}

@Suite("delay")
struct DelayTests {
    @Test func delaysValuesAndCompletion() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        subject.delay(for: .seconds(2), scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .seconds(1))
        subject.send(2)
        subject.send(completion: .failure(.oops))
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == nil)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .failure(.oops))
        // As in Combine, delay's subscription does not describe itself.
        #expect(!(subscriber.subscription! is any CustomStringConvertible))
    }

    @Test func demandPassesThrough() {
        let scheduler = TestScheduler()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        (1...3).publisher.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1])
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1, 2])
        scheduler.run()
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == .finished)
    }

    @Test func cancelDropsScheduledDeliveries() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        subscriber.cancel()
        scheduler.run()
        #expect(subscriber.values.isEmpty)
    }
}

@Suite("timeout")
struct TimeoutTests {
    @Test func finishesWhenSilentWithoutCustomError() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        subject.timeout(.seconds(2), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        subject.send(1)
        scheduler.advance(by: .milliseconds(1_999))
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == nil)
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.completion == .finished)
        subject.send(2)
        scheduler.advance()
        #expect(subscriber.values == [1])
        #expect(String(describing: subscriber.subscription!) == "Timeout")
    }

    @Test func failsWithTheCustomErrorAndCancelsUpstream() {
        let scheduler = TestScheduler()
        let cancels = Log<Void>()
        let subscriber = TestSubscriber<Int, TestError>()
        PassthroughSubject<Int, TestError>()
            .handleEvents(receiveCancel: { cancels.append(()) })
            .timeout(.seconds(1), scheduler: scheduler) { .oops }
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.completion == .failure(.oops))
        #expect(cancels.items.count == 1)
    }

    @Test func aTimelyCompletionWins() {
        let scheduler = TestScheduler()
        let subscriber = TestSubscriber<Int, Never>()
        Just(1).timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance()
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .finished)
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.completions.count == 1)
    }
}

@Suite("receive(on:), subscribe(on:), Timer")
struct ReceiveOnTests {
    @Test func receiveOnMovesValuesAndCompletionToTheScheduler() {
        let scheduler = TestScheduler()
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2].publisher.receive(on: scheduler).subscribe(subscriber)
        #expect(subscriber.events == [.subscription("ReceiveOn")])
        scheduler.advance()
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .finished)
    }

    @Test func receiveOnForwardsDemandReturnedDownstream() {
        let scheduler = TestScheduler()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        (1...3).publisher.receive(on: scheduler).subscribe(subscriber)
        scheduler.run()
        #expect(subscriber.values == [1, 2, 3])
    }

    @Test func subscribeOnSubscribesAndRequestsOnTheScheduler() {
        let scheduler = TestScheduler()
        let log = Log<String>()
        let subscriber = TestSubscriber<Int, Never>()
        Just(1)
            .handleEvents(
                receiveSubscription: { _ in log.append("subscribed") }, receiveRequest: { _ in log.append("requested") }
            )
            .subscribe(on: scheduler)
            .subscribe(subscriber)
        #expect(log.items.isEmpty)
        scheduler.advance()
        #expect(log.items == ["subscribed", "requested"])
        #expect(subscriber.values == [1])
        #expect(String(describing: subscriber.subscription!) == "SubscribeOn")
    }

    @Test func receiveOnAndSubscribeOnTogether() {
        let scheduler = TestScheduler()
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3].publisher.subscribe(on: scheduler).receive(on: scheduler).subscribe(subscriber)
        scheduler.run()
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == .finished)
    }

    @Test func timerTicksEveryIntervalOnceConnected() {
        let scheduler = TestScheduler()
        let subscriber = TestSubscriber<TestScheduler.SchedulerTimeType, Never>()
        let timer = Publishers.Timer(every: .seconds(1), scheduler: scheduler)
        timer.subscribe(subscriber)
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.values.isEmpty)
        let connection = timer.connect()
        scheduler.advance(by: .seconds(3))
        #expect(subscriber.values.map(\.nanoseconds) == [3, 4, 5].map { $0 * 1_000_000_000 })
        connection.cancel()
        scheduler.advance(by: .seconds(3))
        #expect(subscriber.values.count == 3)
    }

    @Test func autoconnectedTimerStopsWhenTheLastSubscriberCancels() {
        let scheduler = TestScheduler()
        var ticks = 0
        let cancellable = Publishers.Timer(every: .milliseconds(500), scheduler: scheduler)
            .autoconnect()
            .sink { _ in ticks += 1 }
        scheduler.advance(by: .seconds(2))
        #expect(ticks == 4)
        cancellable.cancel()
        #expect(scheduler.scheduledCount == 0)
    }
}
