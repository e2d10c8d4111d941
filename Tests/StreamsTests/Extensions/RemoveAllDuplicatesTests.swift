import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("removeAllDuplicates")
struct RemoveAllDuplicatesTests {
    private struct Name: Equatable {
        var text: String
    }

    private struct Session {
        var user: Int
        var id: Int
    }

    @Test func hashableValuesAreSentOnceEach() {
        let subscriber = TestSubscriber<Int, Never>()
        let removed: Publishers.RemoveAllDuplicates<Publishers.Sequence<[Int], Never>> =
            [1, 1, 2, 1, 3, 3, 4].publisher.removeAllDuplicates()
        removed.subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3, 4])
        #expect(subscriber.completions == [.finished])
    }

    @Test func equatableValuesAreSentOnceEach() {
        let subscriber = TestSubscriber<Name, Never>()
        [Name(text: "a"), Name(text: "b"), Name(text: "a")].publisher.removeAllDuplicates().subscribe(subscriber)
        #expect(subscriber.values.map(\.text) == ["a", "b"])
    }

    @Test func theComparatorGetsTheEarlierValueFirst() {
        let pairs = Log<String>()
        let subscriber = TestSubscriber<Int, Never>()
        [Session(user: 1, id: 1), Session(user: 2, id: 2), Session(user: 1, id: 3)].publisher
            .removeAllDuplicates { earlier, value in
                pairs.append("\(earlier.id)-\(value.id)")
                return earlier.user == value.user
            }
            .map(\.id).subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
        #expect(pairs.items == ["1-2", "1-3"])
    }

    @Test func eachSubscriptionHasItsOwnRecord() {
        let removed = [1, 2, 1].publisher.removeAllDuplicates()
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>()
        removed.subscribe(first)
        removed.subscribe(second)
        #expect(first.values == [1, 2])
        #expect(second.values == [1, 2])
    }

    @Test func aRemovedValueAsksTheUpstreamForOneMore() {
        let upstream = ManualUpstream<Int, Never>(failure: nil) { $0 % 2 }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.removeAllDuplicates().subscribe(subscriber)
        #expect(upstream.send(0) == .none)
        #expect(upstream.send(2) == .max(1))
        #expect(subscriber.values == [0])
    }

    @Test func failuresAndCancelPassThrough() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.removeAllDuplicates().subscribe(subscriber)
        upstream.fail()
        #expect(subscriber.completions == [.failure(.oops)])
        let other = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let cancelled = TestSubscriber<Int, TestError>()
        other.removeAllDuplicates().subscribe(cancelled)
        cancelled.cancel()
        #expect(other.subscriptions.last?.cancels == 1)
    }
}
