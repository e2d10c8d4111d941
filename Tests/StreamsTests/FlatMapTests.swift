import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("flatMap")
struct FlatMapTests {
    @Test func mergesInnerPublishers() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3].publisher.flatMap { [$0, $0 * 10].publisher }.subscribe(subscriber)
        #expect(subscriber.values == [1, 10, 2, 20, 3, 30])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.events.first == .subscription("FlatMap"))
    }

    @Test func finishesOnlyWhenOuterAndAllInnersFinish() {
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let inner = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        outer.flatMap { $0 }.subscribe(subscriber)
        outer.send(inner)
        outer.send(completion: .finished)
        inner.send(1)
        #expect(subscriber.completion == nil)
        inner.send(completion: .finished)
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .finished)
    }

    @Test func maxPublishersLimitsConcurrentInners() {
        let requests = Log<Subscribers.Demand>()
        let inners = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
        let subscriber = TestSubscriber<Int, Never>()
        inners.publisher
            .handleEvents(receiveRequest: { requests.append($0) })
            .flatMap(maxPublishers: .max(1)) { $0 }
            .subscribe(subscriber)
        inners[0].send(1)
        inners[1].send(99)  // not subscribed yet: lost, as with any subject
        #expect(requests.items == [.max(1)])
        inners[0].send(completion: .finished)
        #expect(requests.items == [.max(1), .max(1)])
        inners[1].send(2)
        inners[1].send(completion: .finished)
        inners[2].send(3)
        inners[2].send(completion: .finished)
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == .finished)
    }

    @Test func innersAreAskedForOneValueAtATimeUnderLimitedDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        Just([1, 2, 3, 4]).flatMap { $0.publisher }.subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2, 3, 4])
        #expect(subscriber.completion == .finished)
    }

    @Test func anInnerFailureCancelsTheOtherInnersButNotTheUpstream() {
        let cancels = Log<Void>()
        let outer = PassthroughSubject<Int, TestError>()
        let other = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        outer.handleEvents(receiveCancel: { cancels.append(()) })
            .flatMap { value -> AnyPublisher<Int, TestError> in
                value == 0
                    ? other.handleEvents(receiveCancel: { cancels.append(()) }).eraseToAnyPublisher()
                    : Fail(error: .oops).eraseToAnyPublisher()
            }
            .subscribe(subscriber)
        outer.send(0)
        outer.send(1)
        other.send(5)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == .failure(.oops))
        #expect(cancels.items.count == 1)  // `other`; as in Combine, the upstream is not cancelled
    }

    @Test func concurrentInnersDeliverSerially() {
        let inners = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let detector = OverlapDetector()
        let subscriber = TestSubscriber<Int, Never>(onValue: { _ in detector.run() })
        inners.publisher.flatMap { $0 }.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            for i in 0..<1_000 { inners[index].send(index * 1_000 + i) }
        }
        #expect(Set(subscriber.values).count == 4_000)
        #expect(detector.overlaps == 0)
    }

    @Test func neverFailingOuterWithFailingInners() {
        let subscriber = TestSubscriber<Int, TestError>()
        [1, 2].publisher.flatMap { value in
            value == 1
                ? Just(value).setFailureType(to: TestError.self).eraseToAnyPublisher()
                : Fail<Int, TestError>(error: .other).eraseToAnyPublisher()
        }.subscribe(subscriber)
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .failure(.other))
    }
}
