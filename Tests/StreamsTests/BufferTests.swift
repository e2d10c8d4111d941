import Streams
import StreamsTesting
import Testing

@Suite("buffer(size:prefetch:whenFull:)")
struct BufferTests {
    @Test func keepFullPrefetchesAndRefillsAsValuesLeave() {
        let requests = Log<Subscribers.Demand>()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        subject.handleEvents(receiveRequest: { requests.append($0) })
            .buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest)
            .subscribe(subscriber)
        #expect(requests.items == [.max(3)])
        subject.send(1)
        subject.send(2)
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
        #expect(requests.items == [.max(3), .max(1)])
        subscriber.request(.max(5))
        subject.send(3)
        #expect(subscriber.values == [1, 2, 3])
    }

    @Test func byRequestAsksForUnlimitedAtOnce() {
        let requests = Log<Subscribers.Demand>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        let subject = PassthroughSubject<Int, Never>()
        subject.handleEvents(receiveRequest: { requests.append($0) })
            .buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest)
            .subscribe(subscriber)
        // As in Combine, before the downstream has asked for anything.
        #expect(requests.items == [.unlimited])
        subscriber.request(.max(1))
        subscriber.request(.max(1))
        #expect(requests.items == [.unlimited])
        subject.send(1)
        subject.send(2)
        subject.send(3)
        #expect(subscriber.values == [1, 2])
    }

    @Test func whenFullStrategies() {
        func run(_ strategy: Publishers.BufferingStrategy<TestError>) -> TestSubscriber<Int, TestError> {
            let subject = PassthroughSubject<Int, TestError>()
            // One value asked for: upstream is asked for unlimited, the rest piles up.
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
            subject.buffer(size: 2, prefetch: .byRequest, whenFull: strategy).subscribe(subscriber)
            for value in 1...6 { subject.send(value) }
            subscriber.request(.unlimited)
            return subscriber
        }
        #expect(run(.dropNewest).values == [1, 2, 3])
        #expect(run(.dropOldest).values == [1, 5, 6])
        // The failure waits for the next request, and follows the values it takes.
        let failing = run(.customError { .oops })
        #expect(failing.values == [1, 2, 3])
        #expect(failing.completion == .failure(.oops))
    }

    @Test func finishedWaitsForTheBufferAndAFailureDoesNot() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        subject.buffer(size: 5, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(subscriber.completion == nil)
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2])
        // As in Combine, `.finished` also waits for demand once the buffer is empty.
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(subscriber.completion == .finished)

        let other = PassthroughSubject<Int, TestError>()
        let failing = TestSubscriber<Int, TestError>(initialDemand: nil)
        other.buffer(size: 5, prefetch: .keepFull, whenFull: .dropNewest).subscribe(failing)
        other.send(1)
        other.send(completion: .failure(.other))
        #expect(failing.events == [.subscription("Buffer"), .completion(.failure(.other))])
    }

    @Test func aSizeOfZeroIsAcceptedAndEveryValueOverflows() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        subject.buffer(size: 0, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == .finished)
    }
}
