import Streams
import StreamsResilience
import StreamsTesting
import Testing

@Suite("Stress: one circuit breaker shared by several threads")
struct CircuitBreakerStressTests {
    struct Outage: CategorizedError {
        var category: ErrorCategory { .retryable }
    }

    /// Calls through `breaker` to a backend that never answers; the subscriptions the backend got
    /// are counted in `admitted`.
    static func hangingCall(_ breaker: CircuitBreaker, _ scheduler: TestScheduler, admitted: AtomicInt) -> AnyCancellable {
        Deferred { () -> Empty<Int, Outage> in
            admitted.add(1)
            return Empty(completeImmediately: false)
        }
        .circuitBreaker(breaker, scheduler: scheduler)
        .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
    }

    @Test func aHalfOpenCircuitAdmitsNoMoreProbesThanAllowed() {
        let scheduler = TestScheduler()
        let breaker = CircuitBreaker(.init(failureRatio: 1, window: .count(10), minimumThroughput: 1, halfOpenProbes: 3))
        _ = Fail<Int, Outage>(error: Outage()).circuitBreaker(breaker, scheduler: scheduler).sink(
            receiveCompletion: { _ in }, receiveValue: { _ in })
        scheduler.advance(by: .seconds(5))
        let threads = 8
        let calls = scaled(300)
        let admitted = AtomicInt()
        let kept = Locked<[AnyCancellable]>([])
        onThreads(threads) { _ in
            for _ in 0..<calls {
                let call = Self.hangingCall(breaker, scheduler, admitted: admitted)
                kept.withLock { $0.append(call) }
            }
        }
        #expect(admitted.load() == 3)
        #expect(breaker.currentState == .halfOpen)
        // Cancelling every call, from several threads, gives the probes' places back.
        let all = kept.withLock { $0 }
        onThreads(threads) { thread in
            for index in stride(from: thread, to: all.count, by: threads) { all[index].cancel() }
        }
        let next = Self.hangingCall(breaker, scheduler, admitted: admitted)
        #expect(admitted.load() == 4)
        next.cancel()
        print("stress: circuit breaker half-open, \(threads) threads x \(calls) calls: 3 probes admitted")
    }

    @Test func concurrentFailuresOpenTheCircuitOnce() {
        let scheduler = TestScheduler()
        let breaker = CircuitBreaker(.init(failureRatio: 0.5, window: .count(100), minimumThroughput: 100))
        let states = TestSubscriber<CircuitState, Never>()
        breaker.statePublisher.subscribe(states)
        let threads = 8
        let calls = scaled(2_000)
        let admitted = AtomicInt()
        onThreads(threads) { _ in
            for _ in 0..<calls {
                _ = Deferred { () -> Fail<Int, Outage> in
                    admitted.add(1)
                    return Fail(error: Outage())
                }
                .circuitBreaker(breaker, scheduler: scheduler)
                .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
            }
        }
        // The hundredth failure opens the circuit; at most one call per other thread was in
        // flight then.
        #expect(admitted.load() >= 100)
        #expect(admitted.load() < 100 + threads)
        #expect(states.values == [.closed, .open])
    }

    @Test func transitionsFromManyThreadsArePublishedInOrder() {
        let scheduler = TestScheduler()
        let breaker = CircuitBreaker(
            .init(failureRatio: 1, window: .count(4), minimumThroughput: 1, breakDuration: .nanoseconds(1)))
        let states = TestSubscriber<CircuitState, Never>()
        breaker.statePublisher.subscribe(states)
        let threads = 6
        let rounds = scaled(2_000)
        onThreads(threads) { thread in
            for round in 0..<rounds {
                switch (thread + round) % 4 {
                case 0: breaker.isolate()
                case 1: breaker.reset()
                case 2:
                    _ = Fail<Int, Outage>(error: Outage()).circuitBreaker(breaker, scheduler: scheduler).sink(
                        receiveCompletion: { _ in }, receiveValue: { _ in })
                default:
                    _ = Just(1).setFailureType(to: Outage.self).circuitBreaker(breaker, scheduler: scheduler).sink(
                        receiveCompletion: { _ in }, receiveValue: { _ in })
                }
                if thread == 0 && round % 64 == 0 { scheduler.advance(by: .nanoseconds(1)) }
            }
        }
        let published = states.values
        // Every change is published once, in the order it happened: no state twice in a row,
        // and the last one published is the state the breaker is in.
        #expect(zip(published, published.dropFirst()).allSatisfy { $0 != $1 })
        #expect(published.last == breaker.currentState)
        print("stress: circuit breaker, \(threads) threads x \(rounds) rounds: \(published.count) transitions published in order")
    }

    /// Values flow on one thread through a breaker and a limiter while another cancels: nothing
    /// arrives that was sent after the cancel returned (a delivery already under way may finish),
    /// and the sink's closures are let go exactly once.
    @Test func aCancelRacingTheLockFreeValuesStopsThemAndReleasesOnce() {
        let scheduler = TestScheduler()
        let breaker = CircuitBreaker()
        let limiter = ConcurrencyLimiter()
        for _ in 0..<scaled(300) {
            let subject = PassthroughSubject<Int, Outage>()
            let cancelled = AtomicInt()
            let lastReceived = AtomicInt(-1)
            let firstSentAfterCancel = AtomicInt(Int.max)
            let released = AtomicInt()
            final class Token: Sendable {
                let released: AtomicInt
                init(_ released: AtomicInt) { self.released = released }
                deinit { released.add(1) }
            }
            let cancellable: AnyCancellable
            do {
                let token = Token(released)
                cancellable = subject.circuitBreaker(breaker, scheduler: scheduler).concurrencyLimiter(limiter).sink(
                    receiveCompletion: { _ in _ = token },
                    receiveValue: { value in lastReceived.store(value) })
            }
            subject.send(0)
            onThreads(2) { thread in
                if thread == 0 {
                    for value in 1...200 {
                        if cancelled.load() == 1 && firstSentAfterCancel.load() == Int.max {
                            firstSentAfterCancel.store(value)
                        }
                        subject.send(value)
                    }
                } else {
                    cancellable.cancel()
                    cancelled.store(1)
                }
            }
            #expect(lastReceived.load() < firstSentAfterCancel.load())
            #expect(released.load() == 1)
        }
        #expect(limiter.inUse == 0)
    }
}
