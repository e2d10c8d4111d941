import Streams
import StreamsResilience
import StreamsTesting
import Testing

@Suite("ConcurrencyLimiter")
struct ConcurrencyLimiterTests {
    typealias Guarded = TestSubscriber<Int, ResilienceError<BackendError>>

    @Test func defaultsArePollys() {
        let limiter = ConcurrencyLimiter()
        #expect(limiter.maxConcurrent == 1000)
        #expect(limiter.maxQueued == 0)
    }

    @Test func queuesBeyondThePermitsAndRejectsBeyondTheQueue() {
        let scheduler = TestScheduler()
        let limiter = ConcurrencyLimiter(maxConcurrent: 2, maxQueued: 1)
        let backend = ScriptedBackend([.valueAfter(.seconds(1))], scheduler: scheduler)
        let subscribers = (0..<4).map { _ in Guarded() }
        for subscriber in subscribers { backend.publisher.concurrencyLimiter(limiter).subscribe(subscriber) }
        // Two run, one waits (with its subscription in hand), the fourth is refused at once.
        #expect(backend.callCount == 2)
        #expect(limiter.inUse == 2)
        #expect(limiter.queued == 1)
        #expect(subscribers[2].subscriptionCount == 1)
        #expect(subscribers[2].completion == nil)
        #expect(
            subscribers[3].completion == .failure(.limiterRejected(LimiterRejectedError(reason: .queueFull, retryAfter: nil))))
        scheduler.advance(by: .seconds(1))
        // The first call to end hands its permit to the waiting one.
        #expect(subscribers[0...1].map(\.values) == [[1], [1]])
        #expect(backend.callTimes == [.seconds(0), .seconds(0), .seconds(1)])
        #expect(limiter.inUse == 1)
        scheduler.advance(by: .seconds(1))
        #expect(subscribers[2].values == [1])
        #expect(limiter.inUse == 0)
    }

    @Test func aLongQueueOfCallsThatEndAtOnceIsStartedInALoopNotByRecursion() {
        // Each waiting call ends as soon as it starts and releases its permit to the next one.
        // Woken by nested calls, 50 000 of them overflowed the stack of the thread that released
        // the first permit (a crash seen in the stress suite with a few thousand).
        let limiter = ConcurrencyLimiter(maxConcurrent: 1, maxQueued: 50_000)
        let holder = PassthroughSubject<Int, Never>()
        let first = TestSubscriber<Int, ResilienceError<Never>>()
        holder.prefix(1).concurrencyLimiter(limiter).subscribe(first)
        let ended = Locked(0)
        var cancellables: [AnyCancellable] = []
        for _ in 0..<50_000 {
            cancellables.append(
                Just(1).concurrencyLimiter(limiter).sink(
                    receiveCompletion: { _ in ended.withLock { $0 += 1 } }, receiveValue: { _ in }))
        }
        #expect(limiter.queued == 50_000)
        holder.send(1)
        #expect(ended.withLock { $0 } == 50_000)
        #expect(limiter.inUse == 0)
        #expect(limiter.queued == 0)
    }

    @Test func demandAskedWhileWaitingIsAskedOfTheUpstream() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1, maxQueued: 1)
        let first = PassthroughSubject<Int, BackendError>()
        let held = TestSubscriber<Int, ResilienceError<BackendError>>()
        first.concurrencyLimiter(limiter).subscribe(held)
        let waiting = TestSubscriber<Int, ResilienceError<BackendError>>(initialDemand: .max(2))
        [1, 2, 3].publisher.setFailureType(to: BackendError.self).concurrencyLimiter(limiter).subscribe(waiting)
        #expect(waiting.values == [])
        first.send(completion: .finished)
        #expect(waiting.values == [1, 2])
    }

    @Test func cancellingWhileQueuedLeavesTheQueueAtOnce() {
        let scheduler = TestScheduler()
        let limiter = ConcurrencyLimiter(maxConcurrent: 1, maxQueued: 1)
        let backend = ScriptedBackend([.hang, .value], scheduler: scheduler)
        let running = Guarded()
        backend.publisher.concurrencyLimiter(limiter).subscribe(running)
        let queued = Guarded()
        backend.publisher.concurrencyLimiter(limiter).subscribe(queued)
        queued.cancel()
        #expect(limiter.queued == 0)
        // The freed place in the queue is taken by the next call.
        let next = Guarded()
        backend.publisher.concurrencyLimiter(limiter).subscribe(next)
        #expect(limiter.queued == 1)
        running.cancel()
        // Cancelling the running call hands its permit on; the cancelled waiter never runs.
        #expect(next.values == [1])
        #expect(backend.callCount == 2)
        #expect(limiter.inUse == 0)
    }

    @Test func cancellingARunningCallGivesThePermitBack() {
        let scheduler = TestScheduler()
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let backend = ScriptedBackend([.hang, .value], scheduler: scheduler)
        let running = Guarded()
        backend.publisher.concurrencyLimiter(limiter).subscribe(running)
        #expect(limiter.inUse == 1)
        running.cancel()
        #expect(limiter.inUse == 0)
        let next = Guarded()
        backend.publisher.concurrencyLimiter(limiter).subscribe(next)
        #expect(next.values == [1])
    }

    @Test func cancellingInsideTheSubscriptionHandOffReleasesThePermit() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let cancelling = CancelOnSubscribe()
        Just(1).setFailureType(to: BackendError.self).concurrencyLimiter(limiter).subscribe(cancelling)
        #expect(limiter.inUse == 0)
    }

    @Test func aCallCancelledWhileItSubscribesKeepsItsPermitUntilItsSubscriptionIsCancelled() {
        // The downstream cancels while the upstream is being subscribed to (on another thread,
        // or re-entrantly, as here): the call has started, so its permit is kept until the
        // upstream's subscription arrives, and released once that is cancelled.
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let subscriber = Guarded()
        let inUseWhileSubscribing = Locked<Int?>(nil)
        let upstream = SlowToSubscribe {
            subscriber.cancel()
            inUseWhileSubscribing.withLock { $0 = limiter.inUse }
        }
        upstream.concurrencyLimiter(limiter).subscribe(subscriber)
        #expect(inUseWhileSubscribing.withLock { $0 } == 1)
        #expect(upstream.cancelled.withLock { $0 })
        #expect(limiter.inUse == 0)
        #expect(subscriber.completion == nil)
    }

    @Test func aLimiterRefusalIsRetriedWithBackoff() {
        let scheduler = TestScheduler()
        let limiter = ConcurrencyLimiter(maxConcurrent: 1)
        let blocker = ScriptedBackend([.valueAfter(.seconds(3))], scheduler: scheduler)
        let blocked = Guarded()
        blocker.publisher.concurrencyLimiter(limiter).subscribe(blocked)
        let backend = ScriptedBackend([.value], scheduler: scheduler)
        let subscriber = Guarded()
        backend.publisher.concurrencyLimiter(limiter)
            .retry(5, backoff: .constant(.seconds(2)), scheduler: scheduler)
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        // Refused at 0 s and 2 s, admitted at 4 s once the blocker is done.
        #expect(backend.callTimes == [.seconds(4)])
        #expect(subscriber.values == [1])
    }

    @Test func anOutOfRangeLimiterStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = ConcurrencyLimiter(maxConcurrent: 0)
        }
    }
}

/// Cancels its subscription as soon as it receives it.
private final class CancelOnSubscribe: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = ResilienceError<BackendError>
    func receive(subscription: any Subscription) { subscription.cancel() }
    func receive(_ input: Int) -> Subscribers.Demand { .none }
    func receive(completion: Subscribers.Completion<Failure>) {}
}

/// A publisher that runs `beforeSubscription` before it sends its subscription, which records
/// whether it was cancelled.
private struct SlowToSubscribe: Publisher {
    typealias Output = Int
    typealias Failure = BackendError

    let beforeSubscription: @Sendable () -> Void
    let cancelled = Locked(false)

    init(_ beforeSubscription: @escaping @Sendable () -> Void) {
        self.beforeSubscription = beforeSubscription
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == BackendError {
        beforeSubscription()
        subscriber.receive(subscription: Recorded(cancelled: cancelled))
    }

    /// Records its cancel.
    final class Recorded: Subscription, Sendable {
        let cancelled: Locked<Bool>
        init(cancelled: Locked<Bool>) { self.cancelled = cancelled }
        func request(_ demand: Subscribers.Demand) {}
        func cancel() { cancelled.withLock { $0 = true } }
    }
}
