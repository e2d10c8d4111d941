import Dispatch
import Streams
import StreamsResilience
import StreamsTesting
import Testing

@Suite("Stress: limiters shared by several threads")
struct LimiterStressTests {
    struct Outage: Error {}

    @Test(arguments: [RateLimiter.Algorithm.tokenBucket, .fixedWindow, .slidingWindow])
    func aRateLimiterOfAnyShapeAdmitsExactlyItsPermitsToWeightedCallsFromManyThreads(
        algorithm: RateLimiter.Algorithm
    ) {
        // On the immediate scheduler time stands still: exactly the permits of one period pass.
        let limiter = RateLimiter(permits: 100, per: .seconds(60), algorithm: algorithm)
        let threads = 8
        let calls = scaled(100)
        let admittedPermits = AtomicInt()
        onThreads(threads) { thread in
            for index in 0..<calls {
                let permits = (thread + index).isMultiple(of: 2) ? 1 : 3
                _ = Just(permits).setFailureType(to: Outage.self)
                    .rateLimiter(limiter, permits: permits, scheduler: ImmediateScheduler.shared)
                    .sink(receiveCompletion: { _ in }, receiveValue: { admittedPermits.add($0) })
            }
        }
        #expect(admittedPermits.load() <= 100)
        #expect(limiter.available(at: ImmediateScheduler.shared.now) == 100 - admittedPermits.load())
    }

    @Test func aConcurrencyLimiterNeverRunsMoreThanItsPermitsAndLeaksNone() {
        let limiter = ConcurrencyLimiter(maxConcurrent: 3, maxQueued: 10_000)
        let threads = 8
        let calls = scaled(1_000)
        let running = AtomicInt()
        let mostRunning = AtomicInt()
        let unfinished = AtomicInt()
        let kept = Locked<[AnyCancellable]>([])
        onThreads(threads) { thread in
            for index in 0..<calls {
                // A call runs from its subscription until its value, or until a cancel reaches
                // it (a call cancelled while it subscribes is cancelled once it has).
                let started = AtomicInt()
                let stopped = { if started.exchange(0) == 1 { running.add(-1) } }
                let call = Deferred { () -> Just<Int> in
                    started.store(1)
                    running.add(1)
                    let now = running.load()
                    if now > mostRunning.load() { mostRunning.store(now) }
                    return Just(index)
                }
                .handleEvents(receiveOutput: { _ in stopped() }, receiveCancel: { stopped() })
                .setFailureType(to: Outage.self)
                .concurrencyLimiter(limiter)
                let cancels = (thread + index).isMultiple(of: 3)
                let done = AtomicInt()
                if !cancels { unfinished.add(1) }
                let cancellable = call.sink(
                    receiveCompletion: { _ in
                        if !cancels && done.exchange(1) == 0 { unfinished.add(-1) }
                    }, receiveValue: { _ in })
                if cancels { cancellable.cancel() } else { kept.withLock { $0.append(cancellable) } }
            }
        }
        // Every call that was not cancelled ends (run or refused), and every permit comes back.
        spin { unfinished.load() == 0 }
        #expect(mostRunning.load() <= 3)
        #expect(limiter.inUse == 0)
        #expect(limiter.queued == 0)
        print("stress: concurrency limiter of 3, \(threads) threads x \(calls) calls: at most \(mostRunning.load()) ran at once")
    }

    @Test func aRateLimiterHandsOutExactlyItsBurst() {
        let limiter = RateLimiter(permits: 100, per: .seconds(1))
        let threads = 8
        let calls = scaled(500)
        let admitted = AtomicInt()
        let refused = AtomicInt()
        onThreads(threads) { _ in
            for _ in 0..<calls {
                // The immediate scheduler's time never moves: no token is ever earned back.
                _ = Just(1).setFailureType(to: Outage.self)
                    .rateLimiter(limiter, scheduler: ImmediateScheduler.shared)
                    .sink(
                        receiveCompletion: { completion in
                            if case .failure(.limiterRejected) = completion { refused.add(1) }
                        }, receiveValue: { _ in admitted.add(1) })
            }
        }
        #expect(admitted.load() == min(100, threads * calls))
        #expect(admitted.load() + refused.load() == threads * calls)
    }
}
