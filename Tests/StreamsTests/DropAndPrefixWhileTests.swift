import Streams
import StreamsTesting
import Testing

@Suite("drop(while:), prefix(while:) and their try forms")
struct DropAndPrefixWhileTests {
    @Test func dropWhileDropsTheLeadingRunOnly() {
        let asked = Log<Int>()
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 5, 1, 7].publisher
            .eraseToAnyPublisher()
            .drop { value in
                asked.append(value)
                return value < 3
            }
            .subscribe(subscriber)
        #expect(subscriber.events == [.subscription("DropWhile"), .value(5), .value(1), .value(7), .completion(.finished)])
        // Not asked again once it has said false.
        #expect(asked.items == [1, 2, 5])
    }

    @Test func droppedValuesAreReplacedByDemandUpstream() {
        let requests = Log<Subscribers.Demand>()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subject.handleEvents(receiveRequest: { requests.append($0) }).drop { $0 < 3 }.subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        subject.send(4)
        #expect(subscriber.values == [3])
        #expect(requests.items == [.max(1), .max(1), .max(1)])
    }

    @Test func tryDropWhileFailsOnThrow() {
        let subscriber = TestSubscriber<Int, any Error>()
        [1, -1, 5].publisher
            .tryDrop { value in
                guard value >= 0 else { throw TestError.oops }
                return value < 3
            }
            .subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        guard case .failure(let error)? = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? TestError == .oops)
    }

    @Test func prefixWhileFinishesAtTheFirstFalseAndCancelsUpstream() {
        let cancels = Log<Void>()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.handleEvents(receiveCancel: { cancels.append(()) }).prefix { $0 < 3 }.subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(5)
        subject.send(1)
        #expect(subscriber.events == [.subscription("PrefixWhile"), .value(1), .value(2), .completion(.finished)])
        #expect(cancels.items.count == 1)
    }

    @Test func tryPrefixWhileFinishesOrFails() {
        let finishing = TestSubscriber<Int, any Error>()
        [1, 2, 5].publisher.tryPrefix { $0 < 3 }.subscribe(finishing)
        #expect(finishing.values == [1, 2])
        #expect(finishing.completions.count == 1)
        if case .failure = finishing.completion { Issue.record("expected .finished") }

        let failing = TestSubscriber<Int, any Error>()
        [1, -1, 2].publisher
            .tryPrefix { value in
                guard value >= 0 else { throw TestError.other }
                return true
            }
            .subscribe(failing)
        #expect(failing.values == [1])
        guard case .failure(let error)? = failing.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? TestError == .other)
    }
}
