import Streams
import StreamsExt
import StreamsTesting
import Testing

/// The contract checks of ``OperatorContractTests`` for the publishers that bridge from async
/// code: `Publishers.FromAsyncSequence`, `AsyncSequence.publisher` and `Publishers.FromAsync`.
/// They have no upstream publisher for the synchronous harness to drive and deliver from a task,
/// so each check feeds them through an `AsyncStream` it controls and waits for the task by
/// yielding (a bounded number of times, never by sleeping).
@Suite("Contract checks for the async bridges")
struct AsyncBridgeContractTests {
    struct Bridge: CustomTestStringConvertible, Sendable {
        let name: String
        /// The subscription's description.
        let description: String
        /// The bridge over `stream`: its elements for the sequence bridges; for `FromAsync`, the
        /// stream's first element as the closure's one value.
        let make: @Sendable (AsyncStream<Int>) -> AnyPublisher<Int, Never>
        var testDescription: String { name }
    }

    static let bridges = [
        Bridge(name: "Publishers.FromAsyncSequence", description: "FromAsyncSequence") {
            Publishers.FromAsyncSequence($0).eraseToAnyPublisher()
        },
        Bridge(name: "AsyncSequence.publisher", description: "FromAsyncSequence") { $0.publisher.eraseToAnyPublisher() },
        Bridge(name: "Publishers.FromAsync", description: "FromAsync") { stream in
            Publishers.FromAsync {
                var iterator = stream.makeAsyncIterator()
                return await iterator.next() ?? -1
            }.eraseToAnyPublisher()
        },
    ]

    /// Yields until `condition` holds, at most a fixed number of times; whether it held.
    static func yieldUntil(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<100_000 {
            if condition() { return true }
            await Task.yield()
        }
        return condition()
    }

    /// Yields a while, for a check that nothing more happens.
    static func settle() async {
        for _ in 0..<1_000 { await Task.yield() }
    }

    @Test(arguments: bridges)
    func reflection(_ bridge: Bridge) async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        bridge.make(stream).subscribe(subscriber)
        #expect(subscriber.subscriptionCount == 1)
        #expect(subscriber.subscription.map { String(describing: $0) } == bridge.description)
        subscriber.cancel()
        continuation.finish()
    }

    @Test(arguments: bridges)
    func nothingArrivesAfterCancel(_ bridge: Bridge) async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let subscriber = TestSubscriber<Int, Never>()
        bridge.make(stream).subscribe(subscriber)
        await Self.settle()
        subscriber.cancel()
        let seen = subscriber.events.count
        continuation.yield(1)
        continuation.yield(2)
        continuation.finish()
        await Self.settle()
        #expect(subscriber.events.count == seen)
    }

    @Test(arguments: bridges)
    func releasedAfterCompletion(_ bridge: Bridge) async {
        weak var released: TestSubscriber<Int, Never>?
        do {
            let (stream, continuation) = AsyncStream<Int>.makeStream()
            let subscriber = TestSubscriber<Int, Never>()
            bridge.make(stream).subscribe(subscriber)
            continuation.yield(1)
            continuation.finish()
            #expect(await Self.yieldUntil { subscriber.completion != nil })
            #expect(subscriber.values == [1])
            released = subscriber
        }
        #expect(await Self.yieldUntil { released == nil })
    }

    @Test(arguments: bridges)
    func releasedAfterCancel(_ bridge: Bridge) async {
        weak var released: TestSubscriber<Int, Never>?
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        do {
            let subscriber = TestSubscriber<Int, Never>()
            bridge.make(stream).subscribe(subscriber)
            await Self.settle()
            subscriber.cancel()
            released = subscriber
        }
        // The stream has not ended: only the cancel can have let the subscriber go.
        #expect(await Self.yieldUntil { released == nil })
        continuation.finish()
    }

    /// A subscriber that asks for more and then cancels from inside `receive(_:)`: the request
    /// is taken, and nothing arrives after the cancel.
    @Test(arguments: bridges)
    func reentrantRequestAndCancel(_ bridge: Bridge) async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let cancelled = Locked(false)
        let reentrant = ReentrantSubscriber(cancelled: cancelled)
        bridge.make(stream).subscribe(reentrant)
        continuation.yield(1)
        #expect(await Self.yieldUntil { cancelled.withLock { $0 } })
        continuation.yield(2)
        continuation.finish()
        await Self.settle()
        #expect(reentrant.events == ["value 1"])
    }
}

/// On its first value, requests one more and then cancels, both from inside `receive(_:)`.
private final class ReentrantSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    let cancelled: Locked<Bool>
    private let recorded = Locked<[String]>([])
    private let subscription = Locked<(any Subscription)?>(nil)

    init(cancelled: Locked<Bool>) {
        self.cancelled = cancelled
    }

    var events: [String] { recorded.withLock { $0 } }

    func receive(subscription: any Subscription) {
        self.subscription.withLock { $0 = subscription }
        subscription.request(.max(1))
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        recorded.withLock { $0.append("value \(input)") }
        let subscription = self.subscription.withLock { $0 }
        subscription?.request(.max(1))
        subscription?.cancel()
        self.subscription.withLock { $0 = nil }
        cancelled.withLock { $0 = true }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        recorded.withLock { $0.append("completion") }
    }
}
