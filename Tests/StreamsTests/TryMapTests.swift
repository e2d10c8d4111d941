import Streams
import StreamsTesting
import Testing

@Suite("tryMap, tryFilter, tryCompactMap")
struct TryMapTests {
    struct ParseError: Error, Equatable { let text: String }

    func parse(_ text: String) throws -> Int {
        guard let number = Int(text) else { throw ParseError(text: text) }
        return number
    }

    @Test func throwingCancelsUpstreamAndFails() {
        let cancels = Log<Void>()
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        subject.handleEvents(receiveCancel: { cancels.append(()) })
            .tryMap { try parse($0) }
            .subscribe(subscriber)
        subject.send("1")
        subject.send("x")
        subject.send("2")
        #expect(subscriber.values == [1])
        #expect(subscriber.completions.count == 1)
        if case .failure(let error) = subscriber.completion {
            #expect(error as? ParseError == ParseError(text: "x"))
        } else {
            Issue.record("expected a failure")
        }
        #expect(cancels.items.count == 1)
        #expect(String(describing: subscriber.subscription!) == "TryMap")
    }

    @Test func upstreamFailureIsPassedOnAsAnyError() {
        let subscriber = TestSubscriber<Int, any Error>()
        Fail<String, TestError>(error: .oops).tryMap { try parse($0) }.subscribe(subscriber)
        if case .failure(let error) = subscriber.completion {
            #expect(error as? TestError == .oops)
        } else {
            Issue.record("expected a failure")
        }
    }

    @Test func demandPassesThrough() {
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(1))
        ["1", "2", "3"].publisher.tryMap { try parse($0) }.subscribe(subscriber)
        #expect(subscriber.values == [1])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completions.count == 1)
    }

    @Test func tryFilterDropsAndThrows() {
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(2))
        [1, 2, 3, 4, -1, 6].publisher
            .tryFilter { value in
                if value < 0 { throw TestError.oops }
                return value.isMultiple(of: 2)
            }
            .subscribe(subscriber)
        // Rejected values asked upstream for more, so two demanded values are 2 and 4.
        #expect(subscriber.values == [2, 4])
        subscriber.request(.max(5))
        #expect(subscriber.values == [2, 4])
        #expect(subscriber.completions.count == 1)
        #expect(String(describing: subscriber.subscription!) == "TryFilter")
    }

    @Test func tryCompactMapDropsNilsAndThrows() {
        let subscriber = TestSubscriber<Int, any Error>()
        ["1", "", "3", "bad"].publisher
            .tryCompactMap { text -> Int? in
                if text.isEmpty { return nil }
                return try parse(text)
            }
            .subscribe(subscriber)
        #expect(subscriber.values == [1, 3])
        if case .failure(let error) = subscriber.completion {
            #expect(error as? ParseError == ParseError(text: "bad"))
        } else {
            Issue.record("expected a failure")
        }
    }

    @Test func releasesTheClosureAfterTheFailure() {
        weak var weakToken: Tracked?
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        do {
            let token = Tracked()
            weakToken = token
            subject.tryMap { value -> Int in
                _ = token
                throw TestError.oops
            }.subscribe(subscriber)
        }
        #expect(weakToken != nil)
        subject.send(1)
        #expect(weakToken == nil)
    }

    @Test func releasesTheClosureOnCancel() {
        weak var weakToken: Tracked?
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        do {
            let token = Tracked()
            weakToken = token
            subject.tryMap { value -> Int in
                _ = token; return value
            }.subscribe(subscriber)
        }
        subscriber.cancel()
        #expect(weakToken == nil)
    }

    @Test func reentrantCancelFromReceive() {
        let subject = PassthroughSubject<Int, Never>()
        var subscriber: TestSubscriber<Int, any Error>!
        subscriber = TestSubscriber(onValue: { _ in subscriber.cancel() })
        subject.tryMap { $0 }.subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        #expect(subscriber.values == [1])
    }

    @Test func requestingNoneTraps() async {
        await #expect(processExitsWith: .failure) {
            let subscriber = TestSubscriber<Int, any Error>(initialDemand: nil)
            Just(1).tryMap { $0 }.subscribe(subscriber)
            subscriber.request(.none)
        }
    }
}
