import Streams
import StreamsTesting
import Testing

@Suite("filter, compactMap")
struct FilterTests {
    @Test func filterPassesOnlyIncludedValues() {
        let subscriber = TestSubscriber<Int, Never>()
        (1...6).publisher.filter { $0.isMultiple(of: 2) }.subscribe(subscriber)
        #expect(subscriber.values == [2, 4, 6])
        #expect(subscriber.completion == .finished)
    }

    @Test func rejectedValuesAskUpstreamForOneMore() {
        let requests = Log<Subscribers.Demand>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        (1...6).publisher
            .handleEvents(receiveRequest: { requests.append($0) })
            .filter { $0 > 3 }
            .subscribe(subscriber)
        #expect(subscriber.values == [4])
        #expect(requests.items == [.max(1), .max(1), .max(1), .max(1)])
    }

    @Test func fusedFiltersBothApply() {
        let subscriber = TestSubscriber<Int, Never>()
        let fused: Publishers.Filter<Publishers.Sequence<ClosedRange<Int>, Never>> =
            Publishers.Sequence<ClosedRange<Int>, Never>(sequence: 1...10).filter { $0 > 2 }.filter { $0 < 6 }
        fused.subscribe(subscriber)
        #expect(subscriber.values == [3, 4, 5])
    }

    @Test func compactMapDropsNils() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        ["1", "two", "3", "4"].publisher.compactMap { Int($0) }.subscribe(subscriber)
        #expect(subscriber.values == [1, 3])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 3, 4])
        #expect(subscriber.completion == .finished)
    }

    @Test func failurePassesThrough() {
        let subject = PassthroughSubject<Int, TestError>()
        let filtered = TestSubscriber<Int, TestError>()
        let compacted = TestSubscriber<Int, TestError>()
        subject.filter { _ in true }.subscribe(filtered)
        subject.compactMap { $0 }.subscribe(compacted)
        subject.send(completion: .failure(.oops))
        #expect(filtered.completion == .failure(.oops))
        #expect(compacted.completion == .failure(.oops))
    }

    @Test func releasesPredicateOnCancel() {
        weak var weakToken: Tracked?
        let subject = PassthroughSubject<Int, Never>()
        let cancellable: AnyCancellable
        do {
            let token = Tracked()
            weakToken = token
            cancellable = subject.filter { _ in
                _ = token; return true
            }.sink { _ in }
        }
        cancellable.cancel()
        #expect(weakToken == nil)
    }
}
