import Streams
import StreamsTesting
import Testing

@Suite("share(replay:)")
struct ShareReplayTests {
    /// A publisher that counts its subscriptions and cancels, and sends through `upstream`.
    final class Source: @unchecked Sendable {
        let upstream = PassthroughSubject<Int, Never>()
        var subscriptions = 0
        var cancels = 0

        var publisher: AnyPublisher<Int, Never> {
            Deferred { [self] in
                subscriptions += 1
                return upstream.handleEvents(receiveCancel: { [self] in cancels += 1 })
            }.eraseToAnyPublisher()
        }
    }

    @Test func aSynchronousUpstreamReachesEverySubscriberOfAZip() {
        // CombineExt's share(replay:) froze here: `Just` sent its value and completion before
        // zip's first side had asked for anything, and the value was lost.
        let shared = Just("x").share(replay: 1)
        let subscriber = TestSubscriber<String, Never>()
        Publishers.Zip(shared, shared).map { "\($0)\($1)" }.subscribe(subscriber)
        #expect(subscriber.values == ["xx"])
        #expect(subscriber.completion == .finished)
        let latest = TestSubscriber<String, Never>()
        shared.combineLatest(shared).map { "\($0)\($1)" }.subscribe(latest)
        #expect(latest.values == ["xx"])
        #expect(latest.completion == .finished)
    }

    @Test func theFirstSubscriberConnectsOnceForAll() {
        let source = Source()
        let shared = source.publisher.share(replay: 2)
        #expect(source.subscriptions == 0)
        let a = TestSubscriber<Int, Never>()
        let b = TestSubscriber<Int, Never>()
        shared.subscribe(a)
        source.upstream.send(1)
        source.upstream.send(2)
        source.upstream.send(3)
        shared.subscribe(b)
        source.upstream.send(4)
        #expect(source.subscriptions == 1)
        #expect(a.values == [1, 2, 3, 4])
        #expect(b.values == [2, 3, 4])
    }

    @Test func eachSubscribersDemandIsHonoured() {
        let source = Source()
        let shared = source.publisher.share(replay: 3)
        let fast = TestSubscriber<Int, Never>()
        let slow = TestSubscriber<Int, Never>(initialDemand: .max(1))
        shared.subscribe(fast)
        shared.subscribe(slow)
        for value in 1...4 { source.upstream.send(value) }
        #expect(fast.values == [1, 2, 3, 4])
        #expect(slow.values == [1])
        // What the slow subscriber missed waits for it, the latest three values at most.
        slow.request(.unlimited)
        #expect(slow.values == [1, 2, 3, 4])
    }

    @Test func theLastCancelCancelsTheUpstream() {
        let source = Source()
        let shared = source.publisher.share(replay: 1)
        let a = TestSubscriber<Int, Never>()
        let b = TestSubscriber<Int, Never>()
        shared.subscribe(a)
        shared.subscribe(b)
        a.cancel()
        #expect(source.cancels == 0)
        source.upstream.send(1)
        #expect(b.values == [1])
        b.cancel()
        #expect(source.cancels == 1)
        source.upstream.send(2)
        #expect(a.values.isEmpty)
        #expect(b.values == [1])
    }

    @Test func aSubscriberAfterEveryoneCancelledGetsTheKeptValuesThenANewConnection() {
        // As CombineExt's (a multicast through one ReplaySubject, connected automatically): the
        // subject and its values outlive a disconnection.
        let source = Source()
        let shared = source.publisher.share(replay: 1)
        let first = TestSubscriber<Int, Never>()
        shared.subscribe(first)
        source.upstream.send(1)
        first.cancel()
        source.upstream.send(2)  // Nobody is connected: lost.
        let second = TestSubscriber<Int, Never>()
        shared.subscribe(second)
        #expect(source.subscriptions == 2)
        source.upstream.send(3)
        #expect(second.values == [1, 3])
        second.cancel()
        #expect(source.cancels == 2)
    }

    @Test func aSubscriberAfterTheUpstreamCompletedGetsTheValuesAndTheCompletion() {
        let source = Source()
        let shared = source.publisher.share(replay: 2)
        let first = TestSubscriber<Int, Never>()
        shared.subscribe(first)
        for value in 1...3 { source.upstream.send(value) }
        source.upstream.send(completion: .finished)
        let late = TestSubscriber<Int, Never>()
        shared.subscribe(late)
        #expect(late.values == [2, 3])
        #expect(late.completion == .finished)
        // The completed upstream is not subscribed to again.
        #expect(source.subscriptions == 1)
    }

    @Test func aJustSharedKeepsItsValueForASecondSink() {
        let shared = Just(1).share(replay: 1)
        var received: [Int] = []
        shared.sink { received.append($0) }.cancel()
        shared.sink { received.append($0) }.cancel()
        #expect(received == [1, 1])
    }

    @Test func nothingIsKeptOnceEveryoneCancelledAndTheShareIsGone() {
        weak var weakUpstream: PassthroughSubject<Tracked, Never>?
        weak var weakValue: Tracked?
        weak var weakSubscriber: TestSubscriber<Tracked, Never>?
        do {
            let upstream = PassthroughSubject<Tracked, Never>()
            weakUpstream = upstream
            let shared = upstream.share(replay: 1)
            let subscribers = (0..<3).map { _ in TestSubscriber<Tracked, Never>() }
            weakSubscriber = subscribers[0]
            for subscriber in subscribers { shared.subscribe(subscriber) }
            let value = Tracked()
            weakValue = value
            upstream.send(value)
            for subscriber in subscribers { subscriber.cancel() }
        }
        #expect(weakSubscriber == nil)
        #expect(weakUpstream == nil)
        #expect(weakValue == nil)
    }

    @Test func aSubscriberSendingIntoTheUpstreamFromReceiveIsServedInOrder() {
        let upstream = PassthroughSubject<Int, Never>()
        let shared = upstream.share(replay: 2)
        let first = TestSubscriber<Int, Never>(onValue: { value in
            if value < 3 { upstream.send(value + 1) }
        })
        shared.subscribe(first)
        upstream.send(1)
        #expect(first.values == [1, 2, 3])
        let late = TestSubscriber<Int, Never>()
        shared.subscribe(late)
        #expect(late.values == [2, 3])
    }
}
