import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("share, multicast, autoconnect")
struct ShareTests {
    @Test func multicastSendsNothingBeforeConnect() {
        let multicast = [1, 2, 3].publisher.multicast { PassthroughSubject<Int, Never>() }
        let a = TestSubscriber<Int, Never>()
        let b = TestSubscriber<Int, Never>()
        multicast.subscribe(a)
        multicast.subscribe(b)
        #expect(a.values.isEmpty)
        let connection = multicast.connect()
        #expect(a.values == [1, 2, 3])
        #expect(b.values == [1, 2, 3])
        #expect(a.completion == .finished)
        connection.cancel()
    }

    @Test func multicastMakesItsSubjectOnce() {
        var made = 0
        let multicast = PassthroughSubject<Int, Never>().multicast { () -> PassthroughSubject<Int, Never> in
            made += 1
            return PassthroughSubject()
        }
        multicast.subscribe(TestSubscriber<Int, Never>())
        multicast.subscribe(TestSubscriber<Int, Never>())
        _ = multicast.connect()
        #expect(made == 1)
    }

    @Test func multicastWithAGivenSubject() {
        let subject = PassthroughSubject<Int, Never>()
        let upstream = PassthroughSubject<Int, Never>()
        let multicast = upstream.multicast(subject: subject)
        let subscriber = TestSubscriber<Int, Never>()
        multicast.subscribe(subscriber)
        let connection = multicast.connect()
        upstream.send(1)
        connection.cancel()
        upstream.send(2)
        #expect(subscriber.values == [1])
    }

    @Test func shareSubscribesUpstreamOnceForAllSubscribers() {
        var subscriptions = 0
        let upstream = PassthroughSubject<Int, Never>()
        let shared = Deferred { () -> PassthroughSubject<Int, Never> in
            subscriptions += 1
            return upstream
        }.share()
        let a = TestSubscriber<Int, Never>()
        let b = TestSubscriber<Int, Never>()
        shared.subscribe(a)
        upstream.send(1)
        shared.subscribe(b)
        upstream.send(2)
        #expect(subscriptions == 1)
        #expect(a.values == [1, 2])
        #expect(b.values == [2])
    }

    @Test func shareIsAClassComparedByIdentity() {
        let upstream = Just(1)
        let first = upstream.share()
        let copy = first
        #expect(first == copy)
        #expect(first != upstream.share())
    }

    @Test func afterUpstreamFinishesNewSubscribersGetOnlyTheCompletion() {
        let upstream = PassthroughSubject<Int, Never>()
        let shared = upstream.share()
        let a = TestSubscriber<Int, Never>()
        shared.subscribe(a)
        upstream.send(1)
        upstream.send(completion: .finished)
        let late = TestSubscriber<Int, Never>()
        shared.subscribe(late)
        #expect(a.values == [1])
        #expect(late.values.isEmpty)
        #expect(late.completion == .finished)
    }

    @Test func cancellingTheLastSubscriberDisconnectsAndTheNextReconnects() {
        var subscriptions = 0
        let cancels = Log<Void>()
        let upstream = PassthroughSubject<Int, Never>()
        let shared = Deferred { () -> Publishers.HandleEvents<PassthroughSubject<Int, Never>> in
            subscriptions += 1
            return upstream.handleEvents(receiveCancel: { cancels.append(()) })
        }.share()
        let a = TestSubscriber<Int, Never>()
        let b = TestSubscriber<Int, Never>()
        shared.subscribe(a)
        shared.subscribe(b)
        a.cancel()
        #expect(cancels.items.isEmpty)
        b.cancel()
        #expect(cancels.items.count == 1)
        let c = TestSubscriber<Int, Never>()
        shared.subscribe(c)
        upstream.send(5)
        #expect(subscriptions == 2)
        #expect(c.values == [5])
    }

    @Test func manyThreadsSendingThroughShareToSeveralSinks() {
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.share()
        let detectors = (0..<4).map { _ in OverlapDetector() }
        let subscribers = detectors.map { detector in
            TestSubscriber<Int, Never>(onValue: { _ in detector.run() })
        }
        subscribers.forEach { shared.subscribe($0) }
        let threads = 8
        let perThread = 1_000
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for i in 0..<perThread { subject.send(thread * perThread + i) }
        }
        let expected = Set(0..<(threads * perThread))
        for subscriber in subscribers {
            #expect(subscriber.values.count == expected.count)
            #expect(Set(subscriber.values) == expected)
        }
        #expect(detectors.allSatisfy { $0.overlaps == 0 })
    }
}
