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

/// A one-shot signal between tasks: `wait()` returns once `open()` has been called.
final class Gate: Sendable {
    private let state = Locked<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.open { state.waiting.append(continuation) }
                return state.open
            }
            if isOpen { continuation.resume() }
        }
    }
}

/// A weak reference, reached under a lock.
private final class WeakReference: @unchecked Sendable {
    weak var object: AnyObject?
}

/// Records how many events it receives and holds its subscription weakly, so that a test can
/// see when the task that delivers lets go of it.
final class WeakSubscriptionRecorder<Input>: Subscriber, @unchecked Sendable {
    typealias Failure = Never

    private let reference = Locked(WeakReference())
    private let count = Locked(0)
    private let initialDemand: Subscribers.Demand

    init(initialDemand: Subscribers.Demand) {
        self.initialDemand = initialDemand
    }

    /// The subscription, while something else holds it.
    var subscription: (any Subscription)? {
        reference.withLock { $0.object } as? any Subscription
    }

    /// How many values and completions arrived.
    var events: Int { count.withLock { $0 } }

    func receive(subscription: any Subscription) {
        reference.withLock { $0.object = subscription as AnyObject }
        subscription.request(initialDemand)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        count.withLock { $0 += 1 }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        count.withLock { $0 += 1 }
    }
}

@Suite("Publishers.FromAsync")
struct FromAsyncTests {
    @Test func sendsTheClosuresValueThenFinishes() async {
        let subscriber = TestSubscriber<Int, Never>()
        Publishers.FromAsync { 42 }.subscribe(subscriber)
        #expect(await yieldUntil { !subscriber.completions.isEmpty })
        #expect(subscriber.values == [42])
        #expect(subscriber.completions == [.finished])
        #expect(String(describing: subscriber.subscription!) == "FromAsync")
    }

    @Test func theFailureTypeFollowsTheClosure() async {
        struct Refused: Error, Equatable {}
        let untyped: Publishers.FromAsync<Int, any Error> = Publishers.FromAsync { () async throws -> Int in
            throw Refused()
        }
        let typed = Publishers.FromAsync { () async throws(Refused) -> Int in throw Refused() }
        let infallible: Publishers.FromAsync<Int, Never> = Publishers.FromAsync { 1 }
        _ = infallible
        let first = TestSubscriber<Int, any Error>()
        let second = TestSubscriber<Int, Refused>()
        untyped.subscribe(first)
        typed.subscribe(second)
        #expect(await yieldUntil { !first.completions.isEmpty && !second.completions.isEmpty })
        if case .failure(let error) = first.completion { #expect(error is Refused) } else { Issue.record("no failure") }
        #expect(second.completions == [.failure(Refused())])
        #expect(first.values.isEmpty && second.values.isEmpty)
    }

    @Test func nothingRunsBeforeTheFirstRequestAndEachSubscriberRunsItOnce() async {
        let runs = Locked(0)
        let publisher = Publishers.FromAsync {
            runs.withLock {
                $0 += 1; return $0
            }
        }
        let first = TestSubscriber<Int, Never>(initialDemand: nil)
        publisher.subscribe(first)
        // No demand, no task: there is nothing that could run the closure.
        #expect(runs.withLock { $0 } == 0)
        first.request(.max(1))
        first.request(.max(1))
        #expect(await yieldUntil { !first.completions.isEmpty })
        let second = TestSubscriber<Int, Never>()
        publisher.subscribe(second)
        #expect(await yieldUntil { !second.completions.isEmpty })
        #expect(runs.withLock { $0 } == 2)
        let all: [Int] = first.values + second.values
        #expect(all.sorted() == [1, 2])
    }

    @Test func cancelBeforeAnyDemandMeansTheClosureNeverRuns() async {
        let runs = Locked(0)
        weak var released: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
            Publishers.FromAsync {
                runs.withLock {
                    $0 += 1; return 1
                }
            }.subscribe(subscriber)
            subscriber.cancel()
            subscriber.request(.max(1))
            released = subscriber
        }
        #expect(released == nil)
        #expect(runs.withLock { $0 } == 0)
    }

    @Test func cancelCancelsTheTaskAndNothingArrivesAfterIt() async {
        let started = Gate()
        let sawCancel = Gate()
        let release = Gate()
        let recorder = WeakSubscriptionRecorder<Int>(initialDemand: .unlimited)
        Publishers.FromAsync {
            await withTaskCancellationHandler {
                started.open()
                await release.wait()
            } onCancel: {
                sawCancel.open()
            }
            return 1
        }.subscribe(recorder)
        await started.wait()
        recorder.subscription?.cancel()
        await sawCancel.wait()
        release.open()
        // Only the task holds the subscription: it lets go once it has tried to deliver.
        #expect(await yieldUntil { recorder.subscription == nil })
        #expect(recorder.events == 0)
    }

    @Test func cancelFromInsideReceiveValueStopsTheCompletion() async {
        let done = Gate()
        let received = Locked<[Int]>([])
        let completions = Locked(0)
        var cancellable: AnyCancellable?
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription in
                cancellable = AnyCancellable(subscription)
                subscription.request(.unlimited)
            },
            receiveValue: { value in
                received.withLock { $0.append(value) }
                cancellable?.cancel()
                done.open()
                return .none
            },
            receiveCompletion: { _ in completions.withLock { $0 += 1 } })
        Publishers.FromAsync { 5 }.subscribe(subscriber)
        await done.wait()
        #expect(received.withLock { $0 } == [5])
        #expect(completions.withLock { $0 } == 0)
        _ = cancellable
    }

    @Test func theDownstreamIsLetGoOfAfterTheCompletion() async {
        weak var released: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            Publishers.FromAsync { 1 }.subscribe(subscriber)
            #expect(await yieldUntil { !subscriber.completions.isEmpty })
            released = subscriber
        }
        #expect(await yieldUntil { released == nil })
    }

    @Test func concurrentCancelsAndRequestsDeliverAtMostOnce() async {
        for _ in 0..<100 {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
            Publishers.FromAsync { 1 }.subscribe(subscriber)
            await withTaskGroup(of: Void.self) { group in
                group.addTask { subscriber.request(.max(1)) }
                group.addTask { subscriber.request(.max(1)) }
                group.addTask { subscriber.cancel() }
            }
            #expect(subscriber.values.count <= 1)
            #expect(subscriber.completions.count <= 1)
        }
    }
}
