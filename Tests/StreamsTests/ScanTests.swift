import Streams
import StreamsTesting
import Testing

@Suite("scan, tryScan, collect")
struct ScanTests {
    @Test func scanSendsRunningResults() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...4).publisher.scan(0, +).subscribe(subscriber)
        #expect(subscriber.values == [1, 3])
        subscriber.request(.unlimited)
        #expect(subscriber.values == [1, 3, 6, 10])
        #expect(subscriber.completion == .finished)
    }

    @Test func scanRestartsForEachSubscription() {
        let publisher = [1, 2].publisher.scan(10, +)
        let a = TestSubscriber<Int, Never>()
        let b = TestSubscriber<Int, Never>()
        publisher.subscribe(a)
        publisher.subscribe(b)
        #expect(a.values == [11, 13])
        #expect(b.values == [11, 13])
    }

    @Test func tryScanFailsWhenTheClosureThrows() {
        let subscriber = TestSubscriber<Int, any Error>()
        [5, -10, 3].publisher
            .tryScan(0) { total, amount in
                guard total + amount >= 0 else { throw TestError.oops }
                return total + amount
            }
            .subscribe(subscriber)
        #expect(subscriber.values == [5])
        #expect(subscriber.completions.count == 1)
    }

    @Test func collectWaitsForFinishAndDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: nil)
        subject.collect().subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.values == [[1, 2]])
        #expect(subscriber.completion == .finished)
        #expect(String(describing: subscriber.subscription!) == "Collect")
    }

    @Test func collectRequestsUnlimitedUpstream() {
        let requests = Log<Subscribers.Demand>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1))
        [1, 2, 3].publisher.handleEvents(receiveRequest: { requests.append($0) }).collect().subscribe(subscriber)
        #expect(requests.items == [.unlimited])
        #expect(subscriber.values == [[1, 2, 3]])
    }

    @Test func collectPassesFailureAtOnceAndDiscardsValues() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<[Int], TestError>(initialDemand: nil)
        subject.collect().subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(.oops))
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == .failure(.oops))
    }

    @Test func collectOfEmptyUpstreamSendsAnEmptyArray() {
        let subscriber = TestSubscriber<[Int], Never>()
        Empty<Int, Never>().collect().subscribe(subscriber)
        #expect(subscriber.values == [[]])
    }
}
