import Streams
import StreamsTesting
import Testing

@Suite("replaceEmpty(with:)")
struct ReplaceEmptyTests {
    @Test func passesValuesThroughWhenThereAreAny() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2].publisher.replaceEmpty(with: 0).subscribe(subscriber)
        #expect(subscriber.events == [.subscription("ReplaceEmpty"), .value(1), .value(2), .completion(.finished)])
    }

    @Test func sendsTheReplacementWhenUpstreamFinishesEmpty() {
        let subscriber = TestSubscriber<Int, Never>()
        Empty<Int, Never>().replaceEmpty(with: 0).subscribe(subscriber)
        #expect(subscriber.events == [.subscription("ReplaceEmpty"), .value(0), .completion(.finished)])
    }

    @Test func theReplacementWaitsForDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        Empty<Int, Never>().replaceEmpty(with: 9).subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription("ReplaceEmpty"), .value(9), .completion(.finished)])
    }

    @Test func aFailureIsPassedOnWithoutTheReplacement() {
        let subscriber = TestSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: .oops).replaceEmpty(with: 0).subscribe(subscriber)
        #expect(subscriber.events == [.subscription("ReplaceEmpty"), .completion(.failure(.oops))])
    }

    @Test func demandPassesThroughAndCancelReachesUpstream() {
        let requests = Log<Subscribers.Demand>()
        let cancels = Log<Void>()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        subject.handleEvents(receiveCancel: { cancels.append(()) }, receiveRequest: { requests.append($0) })
            .replaceEmpty(with: 0)
            .subscribe(subscriber)
        subject.send(1)
        subscriber.cancel()
        subject.send(completion: .finished)
        #expect(requests.items == [.max(2)])
        #expect(cancels.items.count == 1)
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == nil)
    }
}
