import Streams
import StreamsTesting
import Testing

@Suite("collect(_ count:)")
struct CollectByCountTests {
    @Test func sendsFullArraysThenTheRest() {
        let subscriber = TestSubscriber<[Int], Never>()
        [1, 2, 3, 4, 5].publisher.collect(2).subscribe(subscriber)
        #expect(
            subscriber.events == [
                .subscription("CollectByCount"), .value([1, 2]), .value([3, 4]), .value([5]), .completion(.finished),
            ])
    }

    @Test func nothingLeftMeansNoShortArray() {
        let subscriber = TestSubscriber<[Int], Never>()
        [1, 2].publisher.collect(2).subscribe(subscriber)
        #expect(subscriber.values == [[1, 2]])
        let empty = TestSubscriber<[Int], Never>()
        Empty<Int, Never>().collect(3).subscribe(empty)
        #expect(empty.events == [.subscription("CollectByCount"), .completion(.finished)])
    }

    @Test func aFailureDiscardsWhatWasCollected() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<[Int], TestError>()
        subject.collect(3).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription("CollectByCount"), .completion(.failure(.oops))])
    }

    @Test func eachArrayIsAskedOfUpstreamAsCountValues() {
        let requests = Log<Subscribers.Demand>()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(2), demandPerValue: .max(1))
        subject.handleEvents(receiveRequest: { requests.append($0) }).collect(3).subscribe(subscriber)
        for value in 1...6 { subject.send(value) }
        // Two arrays asked for: six values; each delivered array asks for one more: three values.
        #expect(requests.items == [.max(6), .max(3), .max(3)])
        #expect(subscriber.values == [[1, 2, 3], [4, 5, 6]])
    }

    @Test func cancelReachesUpstreamAndStopsTheArrays() {
        let cancels = Log<Void>()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        subject.handleEvents(receiveCancel: { cancels.append(()) }).collect(2).subscribe(subscriber)
        subject.send(1)
        subscriber.cancel()
        subject.send(2)
        subject.send(completion: .finished)
        #expect(cancels.items.count == 1)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == nil)
    }

    @Test func aCountBelowOneTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Just(1).collect(0)
        }
    }
}
