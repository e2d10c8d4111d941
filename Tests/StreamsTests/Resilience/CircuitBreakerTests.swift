import Streams
import StreamsResilience
import StreamsTesting
import Testing

@Suite("CircuitBreaker")
struct CircuitBreakerTests {
    typealias Guarded = TestSubscriber<Int, ResilienceError<BackendError>>

    /// Opens after `minimum` calls whose failures reach `ratio`, over the last `calls` calls.
    static func countBreaker(calls: Int = 100, minimum: Int = 1, ratio: Double = 1, probes: Int = 1) -> CircuitBreaker {
        CircuitBreaker(.init(failureRatio: ratio, window: .count(calls), minimumThroughput: minimum, halfOpenProbes: probes))
    }

    /// Makes one call through `breaker` to `backend` and returns its subscriber.
    @discardableResult
    func call(_ backend: ScriptedBackend, _ breaker: CircuitBreaker, _ scheduler: TestScheduler) -> Guarded {
        let subscriber = Guarded()
        backend.publisher.circuitBreaker(breaker, scheduler: scheduler).subscribe(subscriber)
        return subscriber
    }

    @Test func defaultsArePollys() {
        let defaults = CircuitBreaker.Configuration()
        #expect(defaults.failureRatio == 0.1)
        #expect(defaults.window == .time(.seconds(30)))
        #expect(defaults.minimumThroughput == 100)
        #expect(defaults.breakDuration == .seconds(5))
        #expect(defaults.halfOpenProbes == 1)
        #expect(defaults.slowCallThreshold == nil)
        #expect(defaults.breakDuration(afterOpenings: 4) == .seconds(5))
    }

    @Test func opensWhenTheRatioIsReachedWithEnoughCalls() {
        let scheduler = TestScheduler()
        let breaker = Self.countBreaker(minimum: 4, ratio: 0.5)
        let backend = ScriptedBackend([.value, .failure(.outage), .value, .failure(.outage), .value], scheduler: scheduler)
        for _ in 0..<3 { call(backend, breaker, scheduler) }
        // Three calls are fewer than the minimum: the failure ratio does not matter yet.
        #expect(breaker.currentState == .closed)
        let fourth = call(backend, breaker, scheduler)
        #expect(fourth.completion == .failure(.upstream(.outage)))
        #expect(breaker.currentState == .open)
        scheduler.advance(by: .seconds(2))
        let refused = call(backend, breaker, scheduler)
        // The refusal comes at once, with the time left, and the backend is not called.
        #expect(refused.completion == .failure(.circuitOpen(CircuitOpenError(state: .open, retryAfter: .seconds(3)))))
        #expect(refused.subscriptionCount == 1)
        #expect(backend.callCount == 4)
    }

    @Test func belowTheMinimumThroughputItNeverOpens() {
        let scheduler = TestScheduler()
        let breaker = Self.countBreaker(minimum: 10)
        let backend = ScriptedBackend([.failure(.outage)], scheduler: scheduler)
        for _ in 0..<9 { call(backend, breaker, scheduler) }
        #expect(breaker.currentState == .closed)
        call(backend, breaker, scheduler)
        #expect(breaker.currentState == .open)
    }

    @Test func aCountWindowForgetsItsOldestOutcomes() {
        let scheduler = TestScheduler()
        let breaker = Self.countBreaker(calls: 2, minimum: 2, ratio: 1)
        let backend = ScriptedBackend(
            [.failure(.outage), .value, .failure(.outage), .failure(.outage)], scheduler: scheduler)
        for _ in 0..<3 { call(backend, breaker, scheduler) }
        // The window holds [success, failure]: half of it failed.
        #expect(breaker.currentState == .closed)
        call(backend, breaker, scheduler)
        #expect(breaker.currentState == .open)
    }

    @Test func aTimeWindowDropsWhatIsOlderThanItsDuration() {
        let scheduler = TestScheduler()
        let breaker = CircuitBreaker(.init(failureRatio: 1, window: .time(.seconds(10)), minimumThroughput: 2))
        let backend = ScriptedBackend([.failure(.outage)], scheduler: scheduler)
        call(backend, breaker, scheduler)
        scheduler.advance(by: .seconds(11))
        call(backend, breaker, scheduler)
        // The first failure's bucket has left the window: one call is below the minimum.
        #expect(breaker.currentState == .closed)
        scheduler.advance(by: .seconds(5))
        call(backend, breaker, scheduler)
        #expect(breaker.currentState == .open)
    }

    @Test func onlyTheFailuresChosenCount() {
        let scheduler = TestScheduler()
        let breaker = Self.countBreaker(ratio: 0.1)
        let backend = ScriptedBackend([.failure(.badRequest)], scheduler: scheduler)
        // A bad request is not retryable: by default it does not count against the backend.
        for _ in 0..<5 { call(backend, breaker, scheduler) }
        #expect(breaker.currentState == .closed)
        let counted = Guarded()
        backend.publisher.circuitBreaker(breaker, when: { _ in true }, scheduler: scheduler).subscribe(counted)
        #expect(breaker.currentState == .open)
    }

    @Test func slowCallsCountAsFailures() {
        let scheduler = TestScheduler()
        let breaker = CircuitBreaker(
            .init(failureRatio: 0.5, window: .count(10), minimumThroughput: 1, slowCallThreshold: .seconds(2)))
        let backend = ScriptedBackend([.valueAfter(.seconds(1)), .valueAfter(.seconds(3))], scheduler: scheduler)
        let fast = call(backend, breaker, scheduler)
        scheduler.advance(by: .seconds(1))
        #expect(fast.values == [1])
        #expect(breaker.currentState == .closed)
        let slow = call(backend, breaker, scheduler)
        scheduler.advance(by: .seconds(3))
        // The value is delivered, but the call counts as failed.
        #expect(slow.values == [1])
        #expect(breaker.currentState == .open)
    }

    @Test func afterTheBreakProbesDecideAndTheStatesArePublishedInOrder() {
        let scheduler = TestScheduler()
        let breaker = Self.countBreaker(probes: 2)
        let states = TestSubscriber<CircuitState, Never>()
        breaker.statePublisher.subscribe(states)
        let backend = ScriptedBackend([.failure(.outage), .valueAfter(.seconds(1))], scheduler: scheduler)
        call(backend, breaker, scheduler)
        scheduler.advance(by: .seconds(5))
        // The break is over, but the circuit turns half-open only when a call arrives.
        #expect(breaker.currentState == .open)
        let probes = [call(backend, breaker, scheduler), call(backend, breaker, scheduler)]
        let third = call(backend, breaker, scheduler)
        #expect(breaker.currentState == .halfOpen)
        #expect(third.completion == .failure(.circuitOpen(CircuitOpenError(state: .halfOpen, retryAfter: nil))))
        scheduler.advance(by: .seconds(1))
        #expect(probes.map(\.values) == [[1], [1]])
        #expect(breaker.currentState == .closed)
        #expect(states.values == [.closed, .open, .halfOpen, .closed])
        #expect(backend.callCount == 3)
    }

    @Test func aFailedProbeOpensAgainForALongerBreak() {
        let scheduler = TestScheduler()
        let breaker = CircuitBreaker(
            .init(
                failureRatio: 1, window: .count(10), minimumThroughput: 1, breakDurationMultiplier: 2,
                maximumBreakDuration: .seconds(15)))
        let backend = ScriptedBackend(
            [.failure(.outage), .failure(.outage), .failure(.outage), .value, .failure(.outage)], scheduler: scheduler)
        call(backend, breaker, scheduler)  // opens for 5 s
        scheduler.advance(by: .seconds(5))
        call(backend, breaker, scheduler)  // the probe fails: 10 s
        #expect(call(backend, breaker, scheduler).failure?.retryAfter == .seconds(10))
        scheduler.advance(by: .seconds(10))
        call(backend, breaker, scheduler)  // fails again: 20 s, capped at 15 s
        #expect(call(backend, breaker, scheduler).failure?.retryAfter == .seconds(15))
        scheduler.advance(by: .seconds(15))
        call(backend, breaker, scheduler)  // succeeds: closed, and the break is back to 5 s
        #expect(breaker.currentState == .closed)
        call(backend, breaker, scheduler)
        #expect(call(backend, breaker, scheduler).failure?.retryAfter == .seconds(5))
    }

    @Test func isolateRefusesUntilReset() {
        let scheduler = TestScheduler()
        let breaker = Self.countBreaker()
        let backend = ScriptedBackend([.value], scheduler: scheduler)
        breaker.isolate()
        let refused = call(backend, breaker, scheduler)
        #expect(refused.completion == .failure(.circuitOpen(CircuitOpenError(state: .isolated, retryAfter: nil))))
        #expect(refused.failure?.category == .nonRetryable)
        breaker.reset()
        #expect(call(backend, breaker, scheduler).values == [1])
        #expect(backend.callCount == 1)
    }

    @Test func retryWaitsForTheCircuitInsteadOfHammeringIt() {
        let scheduler = TestScheduler()
        let breaker = Self.countBreaker()
        let backend = ScriptedBackend([.failure(.outage), .value], scheduler: scheduler)
        let subscriber = Guarded()
        let delays = Log<Duration>()
        backend.publisher
            .circuitBreaker(breaker, scheduler: scheduler)
            .retry(5, backoff: .constant(.seconds(1)), scheduler: scheduler, onRetry: { delays.append($0.delay) })
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(60))
        // Fails at 0 s (the circuit opens for 5 s), refused at 1 s with 4 s left, probes at 5 s.
        #expect(delays.items == [.seconds(1), .seconds(4)])
        #expect(backend.callTimes == [.seconds(0), .seconds(5)])
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .finished)
    }

    @Test func retryGivesUpOnABreakLongerThanItsLimit() {
        let scheduler = TestScheduler()
        let breaker = Self.countBreaker()
        let backend = ScriptedBackend([.failure(.outage), .value], scheduler: scheduler)
        let subscriber = Guarded()
        backend.publisher
            .circuitBreaker(breaker, scheduler: scheduler)
            .retry(5, backoff: .constant(.seconds(1)), retryAfterLimit: .seconds(2), scheduler: scheduler)
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(60))
        #expect(subscriber.completion == .failure(.circuitOpen(CircuitOpenError(state: .open, retryAfter: .seconds(4)))))
        #expect(backend.callCount == 1)
    }

    @Test func cancellingAClosedCallCountsNothing() {
        let scheduler = TestScheduler()
        let breaker = Self.countBreaker()
        let backend = ScriptedBackend([.hang, .failure(.outage)], scheduler: scheduler)
        let hanging = call(backend, breaker, scheduler)
        hanging.cancel()
        #expect(breaker.currentState == .closed)
        call(backend, breaker, scheduler)
        #expect(breaker.currentState == .open)
    }

    @Test func cancellingAProbeGivesItsPlaceBack() {
        let scheduler = TestScheduler()
        let breaker = Self.countBreaker()
        let backend = ScriptedBackend([.failure(.outage), .hang, .value], scheduler: scheduler)
        call(backend, breaker, scheduler)
        scheduler.advance(by: .seconds(5))
        let probe = call(backend, breaker, scheduler)
        #expect(call(backend, breaker, scheduler).failure?.category == .retryable)
        probe.cancel()
        // The cancelled probe told nothing: the next call is the probe, and it closes the circuit.
        #expect(call(backend, breaker, scheduler).values == [1])
        #expect(breaker.currentState == .closed)
    }

    @Test func cancellingBeforeTheUpstreamSubscriptionGivesTheProbeBack() {
        let scheduler = TestScheduler()
        let breaker = Self.countBreaker()
        let upstream = ManualUpstream<Int, BackendError>(failure: .outage) { $0 }
        let first = Guarded()
        upstream.circuitBreaker(breaker, scheduler: scheduler).subscribe(first)
        upstream.fail()
        #expect(breaker.currentState == .open)
        scheduler.advance(by: .seconds(5))
        upstream.holdsSubscription = true
        let probe = Guarded()
        upstream.circuitBreaker(breaker, scheduler: scheduler).subscribe(probe)
        // The downstream has no subscription to cancel yet; the operator's own subscriber can be
        // cancelled through the upstream's held subscription once it arrives.
        let inner = upstream.subscriber as? any Subscription
        inner?.cancel()
        #expect(upstream.sendSubscription()?.cancels == 1)
        #expect(probe.subscriptionCount == 0)
        upstream.holdsSubscription = false
        let next = Guarded()
        upstream.circuitBreaker(breaker, scheduler: scheduler).subscribe(next)
        upstream.send(1)
        #expect(next.values == [1])
        #expect(breaker.currentState == .closed)
    }

    @Test func cancellingARefusedCallDoesNothing() {
        let scheduler = TestScheduler()
        let breaker = Self.countBreaker()
        breaker.isolate()
        let refused = call(ScriptedBackend([.value], scheduler: scheduler), breaker, scheduler)
        refused.cancel()
        #expect(breaker.currentState == .isolated)
    }

    @Test func stackedOperatorsKeepOneErrorType() {
        let scheduler = TestScheduler()
        let breaker = Self.countBreaker()
        let inner = Fail<Int, ResilienceError<BackendError>>(error: .upstream(.outage))
        let guarded: AnyPublisher<Int, ResilienceError<BackendError>> =
            inner.circuitBreaker(breaker, scheduler: scheduler).eraseToAnyPublisher()
        let subscriber = Guarded()
        guarded.subscribe(subscriber)
        #expect(subscriber.completion == .failure(.upstream(.outage)))
        #expect(breaker.currentState == .open)
    }

    @Test func theBreakGrowsUpToItsMaximum() {
        let configuration = CircuitBreaker.Configuration(breakDurationMultiplier: 3, maximumBreakDuration: .seconds(60))
        #expect(configuration.breakDuration(afterOpenings: 1) == .seconds(5))
        #expect(configuration.breakDuration(afterOpenings: 2) == .seconds(15))
        #expect(configuration.breakDuration(afterOpenings: 3) == .seconds(45))
        #expect(configuration.breakDuration(afterOpenings: 4) == .seconds(60))
        #expect(configuration.breakDuration(afterOpenings: 1000) == .seconds(60))
    }

    @Test func anOutOfRangeConfigurationStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = CircuitBreaker(.init(failureRatio: 0))
        }
        await #expect(processExitsWith: .failure) {
            _ = CircuitBreaker(.init(halfOpenProbes: 0))
        }
    }
}
