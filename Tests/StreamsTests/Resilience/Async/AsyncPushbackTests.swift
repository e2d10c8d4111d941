import Dispatch
import Streams
@testable import StreamsResilience
import StreamsTesting
import Testing

/// The pushback stage of `execute`, on a `TestClock`, and its shared state from many threads.
@MainActor
@Suite("Pushback for async calls, and its shared state")
struct AsyncPushbackTests {
    let clock = TestClock()

    @Test func aThrottledAsyncCallPausesTheOtherCallsOfThePipeline() async throws {
        let pipeline = ResiliencePipeline(
            ResiliencePolicy(retry: .init(maxRetries: 2, backoff: .constant(.milliseconds(100))), pushback: .init()))
        let backend = AsyncBackend([.throttled(.seconds(2)), .value], clock: clock)
        let clock = clock
        let first = Task { try await pipeline.execute(clock: clock, backend.call) }
        await eventually { backend.callCount == 1 }
        await eventually { pipeline.pushbackLimiter?.wait(at: clock.now) == .seconds(2) }
        let others = (0..<3).map { _ in Task { try await pipeline.execute(clock: clock, backend.call) } }
        await clock.advance(by: .milliseconds(1_999))
        #expect(backend.callCount == 1)
        await clock.advance(by: .milliseconds(1))
        #expect(try await first.value == 1)
        for other in others { #expect(try await other.value == 1) }
        #expect(backend.callTimes == [.zero] + Array(repeating: .seconds(2), count: 4))
    }

    @Test func aPublisherRefusalPausesAsyncCallsOnTheSameTimeLine() async throws {
        let pipeline = ResiliencePipeline(ResiliencePolicy(pushback: .init()))
        let scheduler = clock.scheduler
        let throttled = TestSubscriber<Int, ResilienceError<ThrottledError>>()
        Fail<Int, ThrottledError>(error: ThrottledError(retryAfter: .seconds(3)))
            .resilient(pipeline, scheduler: scheduler).subscribe(throttled)
        #expect(throttled.failure == .upstream(ThrottledError(retryAfter: .seconds(3))))
        let backend = AsyncBackend([.value], clock: clock)
        let clock = clock
        let call = Task { try await pipeline.execute(clock: clock, backend.call) }
        await clock.advance(by: .seconds(2))
        #expect(backend.callCount == 0)
        await clock.advance(by: .seconds(1))
        #expect(try await call.value == 1)
        #expect(backend.callTimes == [.seconds(3)])
    }

    @Test func cancellingAPausedAsyncCallSendsNothingAndGivesItsPlaceBack() async throws {
        let pipeline = ResiliencePipeline(ResiliencePolicy(pushback: .init()))
        pipeline.pushBack(for: .seconds(5), at: clock.now)
        let backend = AsyncBackend([.value], clock: clock)
        let clock = clock
        let call = Task { try await pipeline.execute(clock: clock, backend.call) }
        await eventually { clock.scheduler.scheduledCount == 1 }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        await clock.advance(by: .seconds(10))
        #expect(backend.callCount == 0)
        #expect(pipeline.pushbackLimiter?.state.withLock { $0.inFlight } == 0)
    }

    @Test func theSharedStateStaysConsistentUnderManyThreads() {
        let limiter = PushbackLimiter(maxWait: .seconds(100))
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for step in 0..<2_000 {
                let now = Duration.milliseconds(step)
                switch limiter.acquire(at: now) {
                case .permit:
                    limiter.report(ServerQuota(limit: 50, remaining: 49 - step % 50, reset: .seconds(1)), at: now, fromCall: true)
                    limiter.finished()
                case .delay:
                    if worker.isMultiple(of: 2) { limiter.cancelledWaiting() } else { limiter.finished() }
                case .reject:
                    break
                }
                if step % 500 == 0 { limiter.pushBack(for: .milliseconds(10), at: now) }
            }
        }
        #expect(limiter.state.withLock { $0.inFlight } == 0)
    }

    @Test func observersAreCalledOutsideTheLimitersLock() {
        // An observer that reads the limiter on the thread it is called on: it would deadlock if
        // the refusal were told while the lock is held.
        let reads = Locked<[Duration]>([])
        let box = Locked<PushbackLimiter?>(nil)
        let events = ResilienceEvents { event in
            if case .limiterRejected = event, let limiter = box.withLock({ $0 }) {
                let wait = limiter.wait(at: ContinuousClock.now)
                reads.withLock { $0.append(wait) }
            }
        }
        let limiter = PushbackLimiter(maxWait: .zero, events: events)
        box.withLock { $0 = limiter }
        limiter.pushBack(for: .seconds(60), at: ContinuousClock.now)
        if case .reject = limiter.acquire(at: ContinuousClock.now.timelineOffset) {
        } else {
            Issue.record("The call was not refused")
        }
        #expect(reads.withLock { $0.count } == 1)
    }
}
