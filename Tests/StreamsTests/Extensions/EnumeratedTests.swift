import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("enumerated(initial:)")
struct EnumeratedTests {
    private func pairs(_ subscriber: TestSubscriber<(index: Int, element: String), TestError>) -> [String] {
        subscriber.values.map { "\($0.index)\($0.element)" }
    }

    @Test func numbersFromZeroByDefault() {
        let subscriber = TestSubscriber<(index: Int, element: String), TestError>()
        ["a", "b", "c"].publisher.setFailureType(to: TestError.self).enumerated().subscribe(subscriber)
        #expect(pairs(subscriber) == ["0a", "1b", "2c"])
        #expect(subscriber.completion == .finished)
        #expect(String(describing: subscriber.subscription!) == "Enumerated")
    }

    @Test func numbersFromInitial() {
        let subscriber = TestSubscriber<(index: Int, element: String), TestError>()
        ["a", "b"].publisher.setFailureType(to: TestError.self).enumerated(initial: -1).subscribe(subscriber)
        #expect(pairs(subscriber) == ["-1a", "0b"])
    }

    @Test func theTupleLabelsAreIndexAndElementAsInCombineExt() {
        var seen: [String] = []
        let cancellable = Publishers.Enumerated(upstream: Just("x"), initial: 5).sink { seen.append("\($0.index):\($0.element)") }
        #expect(seen == ["5:x"])
        cancellable.cancel()
    }

    @Test func eachSubscriptionCountsOnItsOwn() {
        let numbered = ["a", "b"].publisher.setFailureType(to: TestError.self).enumerated(initial: 1)
        let first = TestSubscriber<(index: Int, element: String), TestError>()
        let second = TestSubscriber<(index: Int, element: String), TestError>()
        numbered.subscribe(first)
        numbered.subscribe(second)
        #expect(pairs(first) == ["1a", "2b"])
        #expect(pairs(second) == ["1a", "2b"])
    }

    @Test func demandPassesThrough() {
        let upstream = ManualUpstream<String, TestError>(failure: .oops) { "v\($0)" }
        let subscriber = TestSubscriber<(index: Int, element: String), TestError>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.enumerated().subscribe(subscriber)
        #expect(upstream.subscriptions.last?.requests == [.max(2)])
        #expect(upstream.send(1) == .max(1))
        subscriber.request(.max(3))
        #expect(upstream.subscriptions.last?.requests == [.max(2), .max(3)])
    }

    @Test func failurePassesThrough() {
        let subject = PassthroughSubject<String, TestError>()
        let subscriber = TestSubscriber<(index: Int, element: String), TestError>()
        subject.enumerated().subscribe(subscriber)
        subject.send("a")
        subject.send(completion: .failure(.oops))
        subject.send("b")
        #expect(pairs(subscriber) == ["0a"])
        #expect(subscriber.completions == [.failure(.oops)])
    }

    @Test func nothingAfterCancel() {
        let upstream = ManualUpstream<String, TestError>(failure: .oops) { "v\($0)" }
        upstream.ignoresCancel = true
        let subscriber = TestSubscriber<(index: Int, element: String), TestError>()
        upstream.enumerated().subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        upstream.send(2)
        upstream.finish()
        #expect(pairs(subscriber) == ["0v1"])
        #expect(subscriber.completion == nil)
        #expect(upstream.subscriptions.last?.cancels == 1)
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let upstream = ManualUpstream<String, TestError>(failure: .oops) { "v\($0)" }
        let subscriber = TestSubscriber<(index: Int, element: String), TestError>()
        upstream.enumerated().subscribe(subscriber)
        #expect(upstream.sendSecondSubscription().cancels == 1)
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func countsExactlyUnderConcurrentSends() async {
        // Values arriving on several threads at once (an upstream breaking the one-at-a-time
        // rule) still get distinct indices, each once.
        let subject = PassthroughSubject<Int, Never>()
        let indices = Locked<[Int]>([])
        let cancellable = subject.enumerated().sink { pair in indices.withLock { $0.append(pair.index) } }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask { for value in 0..<250 { subject.send(task * 1000 + value) } }
            }
        }
        cancellable.cancel()
        #expect(indices.withLock { $0.sorted() } == Array(0..<1000))
    }
}
