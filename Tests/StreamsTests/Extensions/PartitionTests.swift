import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("partition(_:)")
struct PartitionTests {
    @Test func splitsTheValuesByThePredicate() {
        let source = PassthroughSubject<Int, Never>()
        let (even, odd) = source.partition { $0.isMultiple(of: 2) }
        let evens = TestSubscriber<Int, Never>()
        let odds = TestSubscriber<Int, Never>()
        even.subscribe(evens)
        odd.subscribe(odds)
        for value in 1...5 { source.send(value) }
        source.send(completion: .finished)
        #expect(evens.values == [2, 4])
        #expect(odds.values == [1, 3, 5])
        #expect(evens.completions == [.finished])
        #expect(odds.completions == [.finished])
    }

    @Test func bothShareOneSubscriptionAndThePredicateRunsOncePerValue() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let calls = Log<Int>()
        let parts = upstream.partition { value in
            calls.append(value)
            return value > 1
        }
        let matches = TestSubscriber<Int, TestError>()
        let nonMatches = TestSubscriber<Int, TestError>()
        parts.matches.subscribe(matches)
        parts.nonMatches.subscribe(nonMatches)
        #expect(upstream.subscriptions.count == 1)
        upstream.send(1)
        upstream.send(2)
        upstream.fail()
        #expect(calls.items == [1, 2])
        #expect(matches.values == [2])
        #expect(nonMatches.values == [1])
        #expect(matches.completions == [.failure(.oops)])
        #expect(nonMatches.completions == [.failure(.oops)])
    }

    @Test func theSharedSubscriptionIsCancelledWhenBothAreCancelled() {
        let upstream = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let parts = upstream.partition { $0 > 0 }
        let matches = TestSubscriber<Int, Never>()
        let nonMatches = TestSubscriber<Int, Never>()
        parts.matches.subscribe(matches)
        parts.nonMatches.subscribe(nonMatches)
        matches.cancel()
        #expect(upstream.subscriptions.last?.cancels == 0)
        nonMatches.cancel()
        #expect(upstream.subscriptions.last?.cancels == 1)
    }

    @Test func valuesBeforeTheSecondSubscriptionDoNotReachIt() {
        let source = PassthroughSubject<Int, Never>()
        let (positive, negative) = source.partition { $0 > 0 }
        let positives = TestSubscriber<Int, Never>()
        let negatives = TestSubscriber<Int, Never>()
        positive.subscribe(positives)
        source.send(-1)
        negative.subscribe(negatives)
        source.send(-2)
        #expect(negatives.values == [-2])
        #expect(positives.values.isEmpty)
    }
}
