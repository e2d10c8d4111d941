import Streams
import StreamsExt
import StreamsTesting
import Testing

/// Yields until `condition` holds, at most a fixed number of times; whether it held.
private func yieldUntil(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<100_000 {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

/// 1, 2, 3, ... up to `limit` (forever without one), counting the iterators made and the calls
/// to `next()`.
private struct Counting: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = Never

    let iterators = Locked(0)
    let pulls = Locked(0)
    var limit: Int?

    struct AsyncIterator: AsyncIteratorProtocol {
        typealias Failure = Never
        let pulls: Locked<Int>
        let limit: Int?
        var last = 0

        mutating func next() async -> Int? {
            pulls.withLock { $0 += 1 }
            last += 1
            if let limit, last > limit { return nil }
            return last
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        iterators.withLock { $0 += 1 }
        return AsyncIterator(pulls: pulls, limit: limit)
    }
}

/// Sends 1, then throws `TestError.oops` with typed throws.
private struct FailingAfterOne: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = TestError

    struct AsyncIterator: AsyncIteratorProtocol {
        var sent = false

        mutating func next() async throws(TestError) -> Int? {
            guard !sent else { throw .oops }
            sent = true
            return 1
        }

        mutating func next(isolation actor: isolated (any Actor)?) async throws(TestError) -> Int? {
            try await next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
}

@Suite("Publishers.FromAsyncSequence")
struct FromAsyncSequenceTests {
    @Test func pullsOnlyAsManyElementsAsHaveBeenRequested() async {
        let sequence = Counting()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        sequence.publisher.subscribe(subscriber)
        #expect(String(describing: subscriber.subscription!) == "FromAsyncSequence")
        #expect(await yieldUntil { subscriber.values.count == 2 })
        // No demand is left: the task waits without calling next() a third time.
        #expect(sequence.pulls.withLock { $0 } == 2)
        subscriber.request(.max(3))
        #expect(await yieldUntil { subscriber.values.count == 5 })
        #expect(subscriber.values == [1, 2, 3, 4, 5])
        #expect(sequence.pulls.withLock { $0 } == 5)
        subscriber.cancel()
        #expect(sequence.pulls.withLock { $0 } == 5)
        #expect(subscriber.completions.isEmpty)
    }

    @Test func nothingIsIteratedBeforeTheFirstRequest() {
        let sequence = Counting()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        Publishers.FromAsyncSequence(sequence).subscribe(subscriber)
        #expect(sequence.iterators.withLock { $0 } == 0)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(sequence.iterators.withLock { $0 } == 0)
    }

    @Test func theEndOfTheSequenceFinishes() async {
        let sequence = Counting(limit: 3)
        let subscriber = TestSubscriber<Int, Never>()
        sequence.publisher.subscribe(subscriber)
        #expect(await yieldUntil { !subscriber.completions.isEmpty })
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completions == [.finished])
        #expect(sequence.pulls.withLock { $0 } == 4)
    }

    @Test func demandReturnedFromReceiveAndRequestedFromInsideItIsHonoured() async {
        let returned = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        Counting(limit: 3).publisher.subscribe(returned)
        let received = Locked<[Int]>([])
        let finished = Locked(false)
        let kept = Locked<(any Subscription)?>(nil)
        let requesting = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription in
                kept.withLock { $0 = subscription }
                subscription.request(.max(1))
            },
            receiveValue: { value in
                received.withLock { $0.append(value) }
                kept.withLock { $0 }?.request(.max(1))
                return .none
            },
            receiveCompletion: { _ in finished.withLock { $0 = true } })
        Counting(limit: 3).publisher.subscribe(requesting)
        #expect(await yieldUntil { !returned.completions.isEmpty && finished.withLock { $0 } })
        #expect(returned.values == [1, 2, 3])
        #expect(received.withLock { $0 } == [1, 2, 3])
    }

    @Test func aThrowingSequenceFailsWithItsError() async {
        let stream = AsyncThrowingStream<Int, any Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: TestError.oops)
        }
        let untyped = TestSubscriber<Int, any Error>()
        stream.publisher.subscribe(untyped)
        let typed = TestSubscriber<Int, TestError>()
        let publisher: Publishers.FromAsyncSequence<FailingAfterOne> = FailingAfterOne().publisher
        publisher.subscribe(typed)
        #expect(await yieldUntil { !untyped.completions.isEmpty && !typed.completions.isEmpty })
        #expect(untyped.values == [1])
        if case .failure(let error) = untyped.completion {
            #expect(error as? TestError == .oops)
        } else {
            Issue.record("no failure")
        }
        #expect(typed.values == [1])
        #expect(typed.completions == [.failure(.oops)])
    }

    @Test func aNonThrowingSequenceNeverFails() {
        let stream = AsyncStream<Int> { $0.finish() }
        let publisher: AnyPublisher<Int, Never> = stream.publisher.eraseToAnyPublisher()
        _ = publisher
    }

    @Test func cancelWhileWaitingForDemandStopsTheTaskAndLetsGo() async {
        let sequence = Counting()
        let recorder = WeakSubscriptionRecorder<Int>(initialDemand: .max(1))
        sequence.publisher.subscribe(recorder)
        #expect(await yieldUntil { recorder.events == 1 })
        recorder.subscription?.cancel()
        // Only the task held the subscription: it has stopped.
        #expect(await yieldUntil { recorder.subscription == nil })
        #expect(sequence.pulls.withLock { $0 } == 1)
        #expect(recorder.events == 1)
    }

    @Test func cancelWhileWaitingInNextCancelsTheIteratingTask() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let terminated = Locked(false)
        continuation.onTermination = { _ in terminated.withLock { $0 = true } }
        let recorder = WeakSubscriptionRecorder<Int>(initialDemand: .unlimited)
        stream.publisher.subscribe(recorder)
        continuation.yield(1)
        #expect(await yieldUntil { recorder.events == 1 })
        recorder.subscription?.cancel()
        #expect(await yieldUntil { terminated.withLock { $0 } && recorder.subscription == nil })
        continuation.yield(2)
        #expect(recorder.events == 1)
    }

    @Test func theDownstreamIsLetGoOfAfterTheCompletion() async {
        weak var released: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            Counting(limit: 2).publisher.subscribe(subscriber)
            #expect(await yieldUntil { !subscriber.completions.isEmpty })
            released = subscriber
        }
        #expect(await yieldUntil { released == nil })
    }

    @Test func requestsFromManyThreadsAddUp() async {
        let sequence = Counting()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        sequence.publisher.subscribe(subscriber)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<10 { group.addTask { subscriber.request(.max(1)) } }
        }
        #expect(await yieldUntil { subscriber.values.count == 10 })
        #expect(subscriber.values == Array(1...10))
        #expect(sequence.pulls.withLock { $0 } == 10)
        subscriber.cancel()
    }
}
