import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("ReplaySubject")
struct ReplaySubjectTests {
    @Test func aNewSubscriberReceivesTheLatestValuesThenWhatFollows() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        #expect(subscriber.values == [2, 3])
        subject.send(4)
        #expect(subscriber.values == [2, 3, 4])
        #expect(subject.bufferSize == 2)
    }

    @Test func aLateSubscriberReceivesTheValuesThenTheCompletion() {
        let subject = ReplaySubject<Int, TestError>(bufferSize: 3)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(.oops))
        subject.send(3)
        subject.send(completion: .finished)
        let subscriber = TestSubscriber<Int, TestError>()
        subject.subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completions == [.failure(.oops)])
    }

    @Test func bufferSizeZeroReplaysOnlyTheCompletion() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 0)
        let early = TestSubscriber<Int, Never>()
        subject.subscribe(early)
        subject.send(1)
        subject.send(completion: .finished)
        let late = TestSubscriber<Int, Never>()
        subject.subscribe(late)
        #expect(early.values == [1])
        #expect(late.values.isEmpty)
        #expect(late.completion == .finished)
    }

    @Test func bufferSizeZeroDropsValuesNobodyAskedFor() {
        // As a PassthroughSubject: nothing is kept for a subscriber without demand.
        let subject = ReplaySubject<Int, Never>(bufferSize: 0)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        subject.subscribe(subscriber)
        subject.send(1)
        subscriber.request(.max(1))
        subject.send(2)
        subject.send(3)
        #expect(subscriber.values == [2])
    }

    @Test func anUnboundedBufferReplaysEveryValue() {
        let subject = ReplaySubject<Int, Never>(bufferSize: .max)
        for value in 0..<1000 { subject.send(value) }
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        #expect(subscriber.values == Array(0..<1000))
    }

    @Test func replayedValuesAreDeliveredOnlyAsDemanded() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 3)
        for value in 1...3 { subject.send(value) }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subject.subscribe(subscriber)
        #expect(subscriber.values == [1])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2])
        subscriber.request(.max(5))
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == nil)
    }

    @Test func aCompletionAfterTheFirstRequestDropsTheValuesNotAskedFor() {
        // CombineExt's rule: the completion does not wait for demand once the subscriber has
        // asked for something.
        let subject = ReplaySubject<Int, Never>(bufferSize: 4)
        for value in 1...4 { subject.send(value) }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        subject.subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        subject.send(completion: .finished)
        #expect(subscriber.completions == [.finished])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 3])
    }

    @Test func aCompletedSubjectsNewSubscriberGetsWhatItsFirstRequestCoversThenTheCompletion() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 3)
        for value in 1...3 { subject.send(value) }
        subject.send(completion: .finished)
        let waiting = TestSubscriber<Int, Never>(initialDemand: nil)
        subject.subscribe(waiting)
        #expect(waiting.completion == nil)
        waiting.request(.max(2))
        #expect(waiting.values == [1, 2])
        #expect(waiting.completions == [.finished])
        let oneAtATime = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        subject.subscribe(oneAtATime)
        #expect(oneAtATime.values == [1, 2, 3])
        #expect(oneAtATime.completions == [.finished])
    }

    @Test func aCompletionWhileADeliveryIsUnderWayFollowsTheValuesAskedFor() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 4)
        let subscriber = TestSubscriber<Int, Never>(
            initialDemand: .max(2),
            onValue: { value in
                guard value == 1 else { return }
                for next in 2...4 { subject.send(next) }
                subject.send(completion: .finished)
            })
        subject.subscribe(subscriber)
        subject.send(1)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completions == [.finished])
    }

    @Test func theDemandASubscriberReturnsIsHonoured() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 10)
        for value in 1...5 { subject.send(value) }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        subject.subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3, 4, 5])
        let capped = TestSubscriber<Int, Never>(initialDemand: .max(2))
        subject.subscribe(capped)
        subject.send(6)
        #expect(capped.values == [1, 2])
        #expect(subscriber.values == [1, 2, 3, 4, 5, 6])
    }

    @Test func aSubscriberThatIsBehindKeepsTheLatestBufferSizeValues() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        subject.subscribe(subscriber)
        for value in 1...5 { subject.send(value) }
        subscriber.request(.max(1))
        #expect(subscriber.values == [4])
        subject.send(6)
        subscriber.request(.unlimited)
        #expect(subscriber.values == [4, 5, 6])
        subject.send(7)
        #expect(subscriber.values == [4, 5, 6, 7])
    }

    @Test func valuesSentBeforeTheFirstRequestReachTheSubscriber() {
        // A subscriber that asks only after its subscription was handed over (as zip and
        // combineLatest do) still receives what was sent meanwhile: CombineExt's freeze with a
        // synchronous upstream.
        let subject = ReplaySubject<Int, Never>(bufferSize: 1)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .finished)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .finished)
    }

    @Test func aValueSentFromInsideReceiveIsDeliveredAfterTheCurrentOne() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 4)
        let log = Log<String>()
        var depth = 0
        let first = TestSubscriber<Int, Never>(onValue: { value in
            depth += 1
            log.append("in \(value) depth \(depth)")
            if value < 3 { subject.send(value + 1) }
            depth -= 1
        })
        let second = TestSubscriber<Int, Never>()
        subject.subscribe(first)
        subject.subscribe(second)
        subject.send(1)
        #expect(first.values == [1, 2, 3])
        #expect(log.items == ["in 1 depth 1", "in 2 depth 1", "in 3 depth 1"])
        #expect(second.values.sorted() == [1, 2, 3])
        let late = TestSubscriber<Int, Never>()
        subject.subscribe(late)
        #expect(late.values == [1, 2, 3])
    }

    @Test func aReplayedValueMayCancelTheSubscription() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 3)
        for value in 1...3 { subject.send(value) }
        var subscriber: TestSubscriber<Int, Never>!
        subscriber = TestSubscriber(onValue: { _ in subscriber.cancel() })
        subject.subscribe(subscriber)
        subject.send(4)
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == nil)
    }

    @Test func aCompletionSentFromInsideReceiveFollowsTheQueuedValues() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        let subscriber = TestSubscriber<Int, Never>(onValue: { value in
            if value == 1 {
                subject.send(2)
                subject.send(completion: .finished)
            }
        })
        subject.subscribe(subscriber)
        subject.send(1)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .finished)
    }

    @Test func cancelForgetsTheSubscriptionAndReleasesTheSubscriber() {
        // A cancelled subscription is removed from the subject at once (a replay subject that
        // kept its cancelled subscriptions grew slower with each one).
        let subject = ReplaySubject<Tracked, Never>(bufferSize: 1)
        weak var weakSubscriber: TestSubscriber<Tracked, Never>?
        do {
            let subscriber = TestSubscriber<Tracked, Never>(initialDemand: nil)
            weakSubscriber = subscriber
            subject.subscribe(subscriber)
            subject.send(Tracked())
            subscriber.cancel()
            subject.send(Tracked())
            #expect(subscriber.values.isEmpty)
        }
        #expect(weakSubscriber == nil)
    }

    @Test func completionReleasesTheSubscriptions() {
        // CombineExt's subject kept its subscriptions, and what they held, after completing.
        let subject = ReplaySubject<Int, Never>(bufferSize: 1)
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        weak var weakSubscription: AnyObject?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            subject.send(1)
            subject.send(completion: .finished)
            #expect(subscriber.completion == .finished)
        }
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)
    }

    @Test func theSubjectGoesAwayWhenItsSubscriptionsAreCancelled() {
        weak var weakSubject: ReplaySubject<Int, Never>?
        let subscribers = (0..<3).map { _ in TestSubscriber<Int, Never>() }
        do {
            let subject = ReplaySubject<Int, Never>(bufferSize: 2)
            weakSubject = subject
            for subscriber in subscribers { subject.subscribe(subscriber) }
            subject.send(1)
        }
        // Live subscriptions keep their subject, as a PassthroughSubject's do.
        #expect(weakSubject != nil)
        for subscriber in subscribers { subscriber.cancel() }
        #expect(weakSubject == nil)
    }

    @Test func oneSubscriberSubscribedTwiceReceivesEverythingTwice() {
        // CombineExt once treated a second subscribe of the same subscriber as a duplicate.
        let subject = ReplaySubject<Int, Never>(bufferSize: 1)
        let recorder = TestSubscriber<Int, Never>()
        let subscriber = AnySubscriber(recorder)
        subject.send(0)
        subject.subscribe(subscriber)
        subject.subscribe(subscriber)
        subject.send(1)
        #expect(recorder.values == [0, 0, 1, 1])
        #expect(recorder.subscriptionCount == 2)
        recorder.subscription?.cancel()
        subject.send(2)
        #expect(recorder.values == [0, 0, 1, 1, 2])
    }

    @Test func itKeepsAndCancelsTheUpstreamSubscriptionsItIsGiven() {
        var cancels = 0
        var requested: [Subscribers.Demand] = []
        let upstream = PassthroughSubject<Int, Never>()
        do {
            let subject = ReplaySubject<Int, Never>(bufferSize: 2)
            let attachment = upstream.handleEvents(
                receiveCancel: { cancels += 1 }, receiveRequest: { requested.append($0) }
            ).subscribe(subject)
            upstream.send(1)
            upstream.send(2)
            upstream.send(3)
            let subscriber = TestSubscriber<Int, Never>()
            subject.subscribe(subscriber)
            #expect(subscriber.values == [2, 3])
            _ = attachment
        }
        #expect(requested == [.unlimited])
        #expect(cancels == 1)
    }

    @Test func aCompletedUpstreamCompletesTheSubject() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        let attachment = [1, 2, 3].publisher.subscribe(subject)
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        #expect(subscriber.values == [2, 3])
        #expect(subscriber.completion == .finished)
        attachment.cancel()
    }

    @Test func describesItsSubscriptions() throws {
        let subject = ReplaySubject<Int, Never>(bufferSize: 1)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        subject.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "ReplaySubject")
        #expect(Mirror(reflecting: subscription).children.map(\.label) == ["downstream", "demand"])
    }

    @Test func aNegativeBufferSizeStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = ReplaySubject<Int, Never>(bufferSize: -1)
        }
        await #expect(processExitsWith: .failure) {
            _ = Just(1).share(replay: -1)
        }
    }
}
