import Streams
import StreamsTesting
import Testing

@Suite("first, first(where:), tryFirst(where:)")
struct FirstTests {
    @Test func firstSendsTheFirstValueAndCancelsUpstream() {
        let cancels = Log<Void>()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.handleEvents(receiveCancel: { cancels.append(()) }).first().subscribe(subscriber)
        subject.send(7)
        subject.send(8)
        #expect(subscriber.values == [7])
        #expect(subscriber.completion == .finished)
        #expect(cancels.items.count == 1)
    }

    @Test func firstWaitsForDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        [3, 4].publisher.first().subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.values == [3])
        #expect(subscriber.completion == .finished)
    }

    @Test func firstOfEmptyJustFinishes() {
        let subscriber = TestSubscriber<Int, Never>()
        Empty<Int, Never>().first().subscribe(subscriber)
        #expect(subscriber.events == [.subscription("First"), .completion(.finished)])
    }

    @Test func firstWhereFindsTheMatch() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 3, 4, 6].publisher.first { $0.isMultiple(of: 2) }.subscribe(subscriber)
        #expect(subscriber.values == [4])
        #expect(subscriber.completion == .finished)
    }

    @Test func tryFirstWhereFailsOnThrow() {
        let subscriber = TestSubscriber<Int, any Error>()
        [1, -1, 4].publisher
            .tryFirst { value in
                if value < 0 { throw TestError.oops }
                return value > 2
            }
            .subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        if case .failure(let error) = subscriber.completion {
            #expect(error as? TestError == .oops)
        } else {
            Issue.record("expected a failure")
        }
    }

    @Test func failureBeforeAMatchIsPassedOn() {
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        Fail<Int, TestError>(error: .other).first().subscribe(subscriber)
        #expect(subscriber.completion == .failure(.other))
    }
}
