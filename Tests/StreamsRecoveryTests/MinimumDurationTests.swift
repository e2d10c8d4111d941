import Dispatch
import Streams
import StreamsRecovery
import StreamsTesting
import Testing

@Suite("minimumDuration")
struct MinimumDurationTests {
    typealias Instant = TestScheduler.SchedulerTimeType

    /// Records each event with the virtual instant it arrived at.
    func timeline<P: Publisher>(of publisher: P, on scheduler: TestScheduler) -> (
        TestSubscriber<P.Output, P.Failure>, Log<String>
    ) {
        let log = Log<String>()
        let subscriber = TestSubscriber<P.Output, P.Failure>()
        publisher
            .handleEvents(
                receiveOutput: { log.append("\(scheduler.now) value \($0)") },
                receiveCompletion: { log.append("\(scheduler.now) \($0)") }
            )
            .subscribe(subscriber)
        return (subscriber, log)
    }

    @Test func aFastFailureIsHeldUntilTheMinimumDuration() {
        let scheduler = TestScheduler()
        let request = Fail<Int, RequestError>(error: .timedOut).delay(for: .milliseconds(20), scheduler: scheduler)
        let (subscriber, log) = timeline(of: request.minimumDuration(.milliseconds(500), scheduler: scheduler), on: scheduler)
        scheduler.advance(by: .milliseconds(499))
        #expect(log.items.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(log.items == ["t=500ms failure(StreamsRecoveryTests.RequestError.timedOut)"])
        #expect(subscriber.completion == .failure(.timedOut))
    }

    @Test func aFastValueIsHeldUntilTheMinimumDuration() {
        let scheduler = TestScheduler()
        let request = Just(7).setFailureType(to: RequestError.self).delay(for: .milliseconds(20), scheduler: scheduler)
        let (_, log) = timeline(of: request.minimumDuration(.milliseconds(500), scheduler: scheduler), on: scheduler)
        scheduler.advance(by: .milliseconds(499))
        #expect(log.items.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(log.items == ["t=500ms value 7", "t=500ms finished"])
    }

    @Test func severalEarlyValuesArriveInOrderAtTheDeadlineThenLaterOnesAtOnce() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, RequestError>()
        let (_, log) = timeline(of: subject.minimumDuration(.seconds(1), scheduler: scheduler), on: scheduler)
        scheduler.advance(by: .milliseconds(100))
        subject.send(1)
        scheduler.advance(by: .milliseconds(100))
        subject.send(2)
        #expect(log.items.isEmpty)
        scheduler.advance(by: .milliseconds(800))
        #expect(log.items == ["t=1s value 1", "t=1s value 2"])
        scheduler.advance(by: .milliseconds(500))
        subject.send(3)
        subject.send(completion: .finished)
        #expect(log.items == ["t=1s value 1", "t=1s value 2", "t=1.5s value 3", "t=1.5s finished"])
    }

    @Test func earlyValuesAndTheCompletionWaitTogether() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, RequestError>()
        let (_, log) = timeline(of: subject.minimumDuration(.seconds(1), scheduler: scheduler), on: scheduler)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(.timedOut))
        scheduler.advance(by: .milliseconds(999))
        #expect(log.items.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(
            log.items == [
                "t=1s value 1", "t=1s value 2", "t=1s failure(StreamsRecoveryTests.RequestError.timedOut)",
            ])
    }

    @Test func aSlowCompletionIsDeliveredAtOnce() {
        let scheduler = TestScheduler()
        let request = Just(7).delay(for: .seconds(2), scheduler: scheduler)
        let (_, log) = timeline(of: request.minimumDuration(.seconds(1), scheduler: scheduler), on: scheduler)
        scheduler.advance(by: .seconds(2))
        #expect(log.items == ["t=2s value 7", "t=2s finished"])
    }

    @Test func aCompletionExactlyAtTheDeadlineIsDeliveredOnce() {
        let scheduler = TestScheduler()
        let request = Empty<Int, Never>().delay(for: .seconds(1), scheduler: scheduler)
        let (subscriber, log) = timeline(of: request.minimumDuration(.seconds(1), scheduler: scheduler), on: scheduler)
        scheduler.advance(by: .seconds(1))
        #expect(log.items == ["t=1s finished"])
        #expect(subscriber.completions.count == 1)
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func theDurationStartsAtSubscription() {
        let scheduler = TestScheduler()
        scheduler.advance(by: .seconds(10))
        let (_, log) = timeline(of: Empty<Int, Never>().minimumDuration(.milliseconds(300), scheduler: scheduler), on: scheduler)
        scheduler.advance(by: .milliseconds(300))
        #expect(log.items == ["t=10.3s finished"])
    }

    @Test func theDownstreamsDemandBoundsWhatIsHeld() {
        let scheduler = TestScheduler()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        let sent = Log<Int>()
        [1, 2, 3, 4].publisher
            .handleEvents(receiveOutput: { sent.append($0) })
            .minimumDuration(.seconds(1), scheduler: scheduler)
            .subscribe(subscriber)
        #expect(sent.items == [1, 2])
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        #expect(sent.items == [1, 2, 3])
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 3, 4])
        #expect(subscriber.completion == .finished)
        #expect(String(describing: subscriber.subscription!) == "MinimumDuration")
    }

    @Test func demandAddedWhileHeldValuesAreHandedOverReachesTheUpstream() {
        let scheduler = TestScheduler()
        let requested = Log<Subscribers.Demand>()
        let subject = PassthroughSubject<Int, Never>()
        let received = Log<Int>()
        subject
            .handleEvents(receiveRequest: { requested.append($0) })
            .minimumDuration(.seconds(1), scheduler: scheduler)
            .subscribe(
                AnySubscriber(
                    receiveSubscription: { $0.request(.max(1)) },
                    receiveValue: { value in
                        received.append(value)
                        return .max(1)
                    }, receiveCompletion: nil))
        subject.send(1)
        subject.send(2)  // beyond the demand: the subject drops it
        scheduler.advance(by: .seconds(1))
        #expect(received.items == [1])
        #expect(requested.items == [.max(1), .max(1)])
        subject.send(3)
        #expect(received.items == [1, 3])
    }

    @Test func cancellingWhileHoldingDeliversNothing() {
        let scheduler = TestScheduler()
        let subscriber = TestSubscriber<Int, RequestError>()
        Fail<Int, RequestError>(error: .timedOut).minimumDuration(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        subscriber.cancel()
        scheduler.run()
        #expect(subscriber.completion == nil)
    }

    @Test func cancellingWhileRunningCancelsUpstreamAtOnce() {
        let scheduler = TestScheduler()
        let cancels = Log<Instant>()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject
            .handleEvents(receiveCancel: { cancels.append(scheduler.now) })
            .minimumDuration(.seconds(1), scheduler: scheduler)
            .subscribe(subscriber)
        scheduler.advance(by: .milliseconds(250))
        subscriber.cancel()
        #expect(cancels.items.map(\.description) == ["t=250ms"])
        subject.send(1)
        subject.send(completion: .finished)
        scheduler.run()
        #expect(subscriber.events.count == 1)
    }

    @Test func eachRetryStartsItsOwnMinimumDuration() {
        let scheduler = TestScheduler()
        let attempts = Log<Instant>()
        let subscriber = TestSubscriber<Int, RequestError>()
        Deferred { () -> Fail<Int, RequestError> in
            attempts.append(scheduler.now)
            return Fail(error: .timedOut)
        }
        .minimumDuration(.milliseconds(500), scheduler: scheduler)
        .recover(through: ErrorHandlerChain()) { presentation in
            Just(presentation.option(titled: attempts.items.count < 3 ? "Try Again" : "Cancel")!)
        }
        .subscribe(subscriber)
        scheduler.run()
        // A failing server cannot be hammered: at most one attempt per half second.
        #expect(attempts.items.map(\.description) == ["t=0s", "t=500ms", "t=1s"])
        #expect(subscriber.completion == .finished)
        #expect(scheduler.now.description == "t=1.5s")
    }

    @Test func valuesSentWhileTheHeldOnesAreHandedOverKeepTheirOrder() {
        // A sender on another thread races the deadline: values it sends while the held ones
        // are being handed over queue behind them, and none is lost or reordered.
        for _ in 0..<20 {
            let subject = PassthroughSubject<Int, Never>()
            let received = Log<Int>()
            let done = DispatchSemaphore(value: 0)
            let cancellable = subject.minimumDuration(.milliseconds(1), scheduler: DispatchQueue.global())
                .sink(receiveCompletion: { _ in done.signal() }, receiveValue: { received.append($0) })
            DispatchQueue.global().async {
                for value in 0..<2_000 { subject.send(value) }
                subject.send(completion: .finished)
            }
            #expect(done.wait(timeout: .now() + 30) == .success)
            #expect(received.items == Array(0..<2_000))
            cancellable.cancel()
        }
    }
}
