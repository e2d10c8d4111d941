import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// A breaker steered by hand while the program runs: disabled, metrics only (shadow mode) and
/// opened for a break of one's choosing, on virtual time.
@Suite("CircuitBreaker control")
struct CircuitBreakerControlTests {
    typealias Guarded = TestSubscriber<Int, ResilienceError<BackendError>>

    /// Opens at the first failure (a count window of 10 calls, at least 2 of them).
    static func breaker(events: ResilienceEvents = .none) -> CircuitBreaker {
        CircuitBreaker(
            .init(failureRatio: 0.5, window: .count(10), minimumThroughput: 2, breakDuration: .seconds(5)), events: events)
    }

    @discardableResult
    func call(_ backend: ScriptedBackend, _ breaker: CircuitBreaker, _ scheduler: TestScheduler) -> Guarded {
        let subscriber = Guarded()
        backend.publisher.circuitBreaker(breaker, scheduler: scheduler).subscribe(subscriber)
        return subscriber
    }

    @Test func aDisabledBreakerLetsEveryCallThroughAndRecordsNothing() {
        let scheduler = TestScheduler()
        let states = Locked<[CircuitState]>([])
        let breaker = Self.breaker(
            events: ResilienceEvents { event in
                if case .circuitStateChanged(let state) = event { states.withLock { $0.append(state) } }
            })
        let backend = ScriptedBackend([.failure(.outage)], scheduler: scheduler)
        breaker.disable()
        #expect(breaker.currentState == .disabled)
        let calls = (0..<6).map { _ in call(backend, breaker, scheduler) }
        #expect(calls.allSatisfy { $0.completion == .failure(.upstream(.outage)) })
        #expect(backend.callCount == 6)
        #expect(breaker.currentState == .disabled)
        // Nothing was recorded meanwhile: back to closed, the window is empty.
        breaker.reset()
        call(backend, breaker, scheduler)
        #expect(breaker.currentState == .closed)
        #expect(states.withLock { $0 } == [.disabled, .closed])
    }

    @Test func metricsOnlyRecordsNeverRefusesAndTellsWhenItWouldOpen() {
        let scheduler = TestScheduler()
        let told = Locked<[String]>([])
        let breaker = Self.breaker(
            events: ResilienceEvents { event in
                switch event {
                case .circuitWouldOpen, .circuitStateChanged: told.withLock { $0.append("\(event)") }
                default: break
                }
            })
        let backend = ScriptedBackend(
            [.value, .failure(.outage), .failure(.outage), .value, .value, .value, .value], scheduler: scheduler)
        breaker.switchToMetricsOnly()
        let calls = (0..<7).map { _ in call(backend, breaker, scheduler) }
        #expect(backend.callCount == 7)
        #expect(calls.allSatisfy { !($0.failure?.isCircuitOpen ?? false) })
        #expect(breaker.currentState == .metricsOnly)
        // The second call brings the window to 2 calls, 1 failed: a closed circuit opens there;
        // the third keeps it above the thresholds (told once); the sixth brings it below.
        #expect(
            told.withLock { $0 } == ["circuitStateChanged(metricsOnly)", "circuitWouldOpen(calls: 2, failures: 1, slowCalls: 0)"])
        breaker.reset()
        #expect(breaker.currentState == .closed)
    }

    @Test func openForADurationRefusesWithTheTimeLeftThenProbes() {
        let scheduler = TestScheduler()
        let breaker = Self.breaker()
        let backend = ScriptedBackend([.value], scheduler: scheduler)
        scheduler.advance(by: .seconds(1))
        breaker.open(for: .seconds(30), at: scheduler.now)
        #expect(breaker.currentState == .open)
        scheduler.advance(by: .seconds(10))
        let refused = call(backend, breaker, scheduler)
        #expect(refused.completion == .failure(.circuitOpen(CircuitOpenError(state: .open, retryAfter: .seconds(20)))))
        #expect(backend.callCount == 0)
        scheduler.advance(by: .seconds(20))
        let probe = call(backend, breaker, scheduler)
        #expect(probe.values == [1])
        #expect(breaker.currentState == .closed)
    }

    @Test func openUntilAnInstantWorksFromAnyState() {
        let scheduler = TestScheduler()
        let breaker = Self.breaker()
        let backend = ScriptedBackend([.value], scheduler: scheduler)
        breaker.disable()
        breaker.open(until: scheduler.now.advanced(by: .seconds(3)))
        #expect(call(backend, breaker, scheduler).failure?.isCircuitOpen == true)
        scheduler.advance(by: .seconds(3))
        #expect(call(backend, breaker, scheduler).values == [1])
        #expect(breaker.currentState == .closed)
    }
}

extension ResilienceError {
    /// Whether this is a breaker's refusal.
    var isCircuitOpen: Bool {
        if case .circuitOpen = self { return true }
        return false
    }
}
