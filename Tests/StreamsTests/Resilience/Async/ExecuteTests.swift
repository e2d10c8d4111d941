import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// `ResiliencePipeline.execute`: each stage of the policy on the `async` face, on virtual time.
@MainActor
@Suite("ResiliencePipeline.execute")
struct ExecuteTests {
    let clock = TestClock()

    /// Starts a call of `backend` through `pipeline` in a task of its own.
    func start(
        _ backend: AsyncBackend, _ pipeline: ResiliencePipeline, isSafeToRepeat: Bool = true
    ) -> Task<Int, any Error> {
        let clock = clock
        return Task { try await pipeline.execute(clock: clock, isSafeToRepeat: isSafeToRepeat, backend.call) }
    }

    /// The error `task` threw, or nil when it returned.
    func failure(of task: Task<Int, any Error>) async -> (any Error)? {
        do {
            _ = try await task.value
            return nil
        } catch {
            return error
        }
    }

    static let retryEverySecond = ResiliencePolicy(retry: .init(maxRetries: 2, backoff: .constant(.seconds(1))))

    @Test func aCallThatSucceedsReturnsItsValueAtOnce() async throws {
        let backend = AsyncBackend([.value], clock: clock)
        let value = try await ResiliencePipeline(Self.retryEverySecond).execute(clock: clock, backend.call)
        #expect(value == 1)
        #expect(backend.calls.map(\.attempt) == [ResilienceAttempt(number: 1, hedge: 0)])
        #expect(clock.scheduler.scheduledCount == 0)
    }

    @Test func failuresAreRetriedAfterTheBackoffOnTheClock() async throws {
        let backend = AsyncBackend([.failure(.outage), .failure(.outage), .value], clock: clock)
        let task = start(backend, ResiliencePipeline(Self.retryEverySecond))
        await eventually { clock.scheduler.scheduledCount == 1 }
        #expect(backend.callCount == 1)
        await clock.advance(by: .seconds(1))
        await eventually { clock.scheduler.scheduledCount == 1 && backend.callCount == 2 }
        await clock.advance(by: .seconds(1))
        #expect(try await task.value == 1)
        #expect(backend.callTimes == [.zero, .seconds(1), .seconds(2)])
        #expect(backend.calls.map(\.attempt.number) == [1, 2, 3])
    }

    @Test func whenTheRetryGivesUpTheLastErrorIsThrownUnchanged() async {
        let reports = Locked<[String]>([])
        var policy = Self.retryEverySecond
        policy.retry?.backoff = .immediate
        policy.onRetryGiveUp = { report in reports.withLock { $0.append("\(report.reason) after \(report.attempts)") } }
        let backend = AsyncBackend([.failure(.outage)], clock: clock)
        let task = start(backend, ResiliencePipeline(policy))
        #expect(await failure(of: task) as? BackendError == .outage)
        #expect(backend.callCount == 3)
        #expect(reports.withLock { $0 } == ["exhausted after 3"])
    }

    @Test func aNonRetryableErrorIsThrownAtOnce() async {
        let backend = AsyncBackend([.failure(.badRequest), .value], clock: clock)
        let task = start(backend, ResiliencePipeline(Self.retryEverySecond))
        #expect(await failure(of: task) as? BackendError == .badRequest)
        #expect(backend.callCount == 1)
    }

    @Test func theServersRetryAfterHintIsWaitedFor() async throws {
        let backend = AsyncBackend([.throttled(.seconds(5)), .value], clock: clock)
        let task = start(backend, ResiliencePipeline(Self.retryEverySecond))
        await eventually { clock.scheduler.scheduledCount == 1 }
        await clock.advance(by: .seconds(4))
        #expect(backend.callCount == 1)
        await clock.advance(by: .seconds(1))
        #expect(try await task.value == 1)
        #expect(backend.callTimes == [.zero, .seconds(5)])
    }

    @Test func aHintOverTheLimitIsNotWaitedFor() async {
        var policy = Self.retryEverySecond
        policy.retry?.retryAfterLimit = .seconds(10)
        let backend = AsyncBackend([.throttled(.seconds(60)), .value], clock: clock)
        let task = start(backend, ResiliencePipeline(policy))
        #expect(await failure(of: task) as? ThrottledError == ThrottledError(retryAfter: .seconds(60)))
        #expect(backend.callCount == 1)
    }

    @Test func anAttemptTimeoutCancelsTheAttemptAndIsRetried() async throws {
        let policy = ResiliencePolicy(
            retry: .init(maxRetries: 1, backoff: .constant(.seconds(1))), attemptTimeout: .seconds(2))
        let backend = AsyncBackend([.hang, .value], clock: clock)
        let task = start(backend, ResiliencePipeline(policy))
        await eventually { clock.scheduler.scheduledCount == 2 }  // the attempt's sleep and its timeout
        await clock.advance(by: .seconds(2))
        await eventually { backend.calls.first?.cancelled == true && clock.scheduler.scheduledCount == 1 }
        await clock.advance(by: .seconds(1))
        #expect(try await task.value == 1)
        #expect(backend.callTimes == [.zero, .seconds(3)])
    }

    @Test func aTimedOutAttemptWithoutRetryThrowsAttemptTimeoutError() async {
        let backend = AsyncBackend([.hang], clock: clock)
        let task = start(backend, ResiliencePipeline(ResiliencePolicy(attemptTimeout: .seconds(2))))
        await eventually { clock.scheduler.scheduledCount == 2 }
        await clock.advance(by: .seconds(2))
        #expect(await failure(of: task) as? AttemptTimeoutError == AttemptTimeoutError(timeout: .seconds(2)))
        #expect(backend.calls.map(\.cancelled) == [true])
    }

    @Test func theTotalTimeoutBoundsEveryAttemptAndWait() async {
        let policy = ResiliencePolicy(
            totalTimeout: .seconds(3), retry: .init(maxRetries: 10, backoff: .constant(.seconds(1))),
            attemptTimeout: .seconds(2))
        let backend = AsyncBackend([.hang], clock: clock)
        let task = start(backend, ResiliencePipeline(policy))
        await eventually { clock.scheduler.scheduledCount == 3 }
        await clock.advance(by: .seconds(2))
        await eventually { backend.callCount == 1 && clock.scheduler.scheduledCount == 2 }
        await clock.advance(by: .seconds(1))
        #expect(await failure(of: task) as? DeadlineExceededError == DeadlineExceededError(deadline: .seconds(3)))
        #expect(backend.callCount == 1)
        #expect(clock.scheduler.scheduledCount == 0)
    }

    @Test func cancellingTheCallerDuringAnAttemptCancelsItAndIsNeverRetried() async {
        let backend = AsyncBackend([.hang, .value], clock: clock)
        let pipeline = ResiliencePipeline(ResiliencePolicy(retry: .init(maxRetries: 3, backoff: .immediate)))
        let task = start(backend, pipeline)
        await eventually { clock.scheduler.scheduledCount == 1 }
        task.cancel()
        #expect(await failure(of: task) is CancellationError)
        #expect(backend.calls.map(\.cancelled) == [true])
        #expect(clock.scheduler.scheduledCount == 0)
    }

    @Test func cancellingTheCallerDuringARetrysWaitEndsItAtOnceAndRefundsTheBudget() async {
        var policy = Self.retryEverySecond
        policy.retry?.budget = .init(capacity: 10, retryCost: 5, successRefill: 0)
        let pipeline = ResiliencePipeline(policy)
        let backend = AsyncBackend([.failure(.outage), .value], clock: clock)
        let task = start(backend, pipeline)
        await eventually { clock.scheduler.scheduledCount == 1 }
        #expect(pipeline.retryBudget?.available == 5)
        task.cancel()
        #expect(await failure(of: task) is CancellationError)
        #expect(backend.callCount == 1)
        #expect(pipeline.retryBudget?.available == 10)
        #expect(clock.scheduler.scheduledCount == 0)
    }

    @Test func anOperationsOwnCancellationErrorIsAFailureOfThatAttempt() async throws {
        var policy = Self.retryEverySecond
        policy.retry?.retryOn = [.retryable, .nonRetryable]
        policy.retry?.backoff = .immediate
        let backend = AsyncBackend([.spuriousCancellation, .value], clock: clock)
        let task = start(backend, ResiliencePipeline(policy))
        #expect(try await task.value == 1)
        #expect(backend.callCount == 2)

        let once = AsyncBackend([.spuriousCancellation, .value], clock: clock)
        let plain = start(once, ResiliencePipeline(Self.retryEverySecond))
        #expect(await failure(of: plain) is CancellationError)  // not retryable by default
        #expect(once.callCount == 1)
    }

    @Test func aCallNotSafeToRepeatIsNotRetriedAfterATimeout() async {
        let policy = ResiliencePolicy(retry: .init(maxRetries: 2, backoff: .immediate), attemptTimeout: .seconds(1))
        let backend = AsyncBackend([.hang, .value], clock: clock)
        let task = start(backend, ResiliencePipeline(policy), isSafeToRepeat: false)
        await eventually { clock.scheduler.scheduledCount == 2 }
        await clock.advance(by: .seconds(1))
        let timeout = await failure(of: task) as? AttemptTimeoutError
        #expect(timeout == AttemptTimeoutError(timeout: .seconds(1), isSafeToRepeat: false))
        #expect(timeout?.category == .nonRetryable)
        #expect(backend.callCount == 1)
    }

    @Test func aCallNotSafeToRepeatIsRetriedAfterATimeoutThatNeverReachedTheServer() async throws {
        let policy = ResiliencePolicy(retry: .init(maxRetries: 2, backoff: .immediate))
        let attempts = Locked(0)
        let value = try await ResiliencePipeline(policy).execute(clock: clock, isSafeToRepeat: false) { _ in
            let number = attempts.withLock { count in
                count += 1
                return count
            }
            guard number > 1 else { throw AttemptTimeoutError(timeout: .seconds(1), mayHaveReachedServer: false) }
            return 1
        }
        #expect(value == 1)
        #expect(attempts.withLock { $0 } == 2)
    }

    @Test func aCallNotSafeToRepeatIsStillRetriedAfterItsOwnRetryableError() async throws {
        let policy = ResiliencePolicy(retry: .init(maxRetries: 2, backoff: .immediate))
        let backend = AsyncBackend([.failure(.outage), .value], clock: clock)
        let task = start(backend, ResiliencePipeline(policy), isSafeToRepeat: false)
        #expect(try await task.value == 1)
    }

    @Test func theBreakerOpensAndTheNextCallFailsFastWithItsTimeLeft() async throws {
        let policy = ResiliencePolicy(
            circuitBreaker: .init(failureRatio: 0.5, window: .count(4), minimumThroughput: 2, breakDuration: .seconds(5)))
        let pipeline = ResiliencePipeline(policy)
        let backend = AsyncBackend([.failure(.outage), .failure(.outage), .value], clock: clock)
        for _ in 0..<2 {
            #expect(await failure(of: start(backend, pipeline)) as? BackendError == .outage)
        }
        #expect(pipeline.circuitBreaker?.currentState == .open)
        let refused = await failure(of: start(backend, pipeline)) as? CircuitOpenError
        #expect(refused?.retryAfter == .seconds(5))
        #expect(backend.callCount == 2)
        await clock.advance(by: .seconds(5))
        #expect(try await start(backend, pipeline).value == 1)
        #expect(pipeline.circuitBreaker?.currentState == .closed)
    }

    @Test func theConcurrencyLimiterQueuesThenRefusesAndACancelledWaiterLeavesTheQueue() async throws {
        let pipeline = ResiliencePipeline(ResiliencePolicy(concurrencyLimit: .init(maxConcurrent: 1, maxQueued: 1)))
        let backend = AsyncBackend([.valueAfter(.seconds(1))], clock: clock)
        let first = start(backend, pipeline)
        await eventually { backend.callCount == 1 }
        let queued = start(backend, pipeline)
        await eventually { pipeline.concurrencyLimiter?.queued == 1 }
        #expect(await failure(of: start(backend, pipeline)) is LimiterRejectedError)
        queued.cancel()
        #expect(await failure(of: queued) is CancellationError)
        #expect(pipeline.concurrencyLimiter?.queued == 0)
        let next = start(backend, pipeline)
        await eventually { pipeline.concurrencyLimiter?.queued == 1 }
        await clock.advance(by: .seconds(1))
        #expect(try await first.value == 1)
        await eventually { backend.callCount == 2 }
        await clock.advance(by: .seconds(1))
        #expect(try await next.value == 1)
        #expect(pipeline.concurrencyLimiter?.inUse == 0)
    }

    @Test func theRateLimiterRefusesBeyondItsTokensWithTheTimeToTheNext() async {
        let pipeline = ResiliencePipeline(ResiliencePolicy(rateLimit: .init(permits: 2, per: .seconds(1))))
        let backend = AsyncBackend([.value], clock: clock)
        for _ in 0..<2 { #expect(await failure(of: start(backend, pipeline)) == nil) }
        let refused = await failure(of: start(backend, pipeline)) as? LimiterRejectedError
        #expect(refused?.retryAfter == .milliseconds(500))
        #expect(backend.callCount == 2)
    }

    @Test func aHedgeStartsAfterTheDelayAndTheWinnerCancelsTheOthers() async throws {
        let events = Locked<[String]>([])
        var policy = ResiliencePolicy()
        policy.hedging = Hedging(maxAttempts: 2, delay: .seconds(1))
        let pipeline = ResiliencePipeline(policy, events: ResilienceEvents { event in events.withLock { $0.append("\(event)") } })
        let backend = AsyncBackend([.hang, .valueAfter(.seconds(1))], clock: clock)
        let task = start(backend, pipeline)
        await eventually { clock.scheduler.scheduledCount == 2 }
        await clock.advance(by: .seconds(1))
        await eventually { backend.callCount == 2 && clock.scheduler.scheduledCount == 2 }
        await clock.advance(by: .seconds(1))
        #expect(try await task.value == 1)
        #expect(backend.calls.map(\.attempt.hedge) == [0, 1])
        #expect(backend.calls.map(\.cancelled) == [true, false])
        #expect(events.withLock { $0 } == ["hedgeStarted(attempt: 2, afterFailure: nil)"])
    }

    @Test func aCallNotSafeToRepeatIsNeverHedged() async throws {
        var policy = ResiliencePolicy()
        policy.hedging = Hedging(maxAttempts: 3, delay: .zero)
        let backend = AsyncBackend([.valueAfter(.seconds(1))], clock: clock)
        let task = start(backend, ResiliencePipeline(policy), isSafeToRepeat: false)
        await eventually { clock.scheduler.scheduledCount == 1 }
        await clock.advance(by: .seconds(1))
        #expect(try await task.value == 1)
        #expect(backend.callCount == 1)
    }

    @Test func aStageWithoutAnAsyncFormStopsTheCallWithTheRuleRatherThanBeingSkipped() async {
        await #expect(processExitsWith: .failure) {
            var policy = ResiliencePolicy()
            policy.hedging = PassThroughStage()
            _ = try? await ResiliencePipeline(policy).execute { _ in 1 }
        }
    }

    /// An event with the publisher's `ResilienceError.upstream` taken off its error.
    nonisolated static func unwrapped(_ event: ResilienceEvent) -> String {
        func plain(_ error: (any Error)?) -> String {
            guard let error else { return "nil" }
            if case .upstream(let upstream) = error as? ResilienceError<BackendError> { return "\(upstream)" }
            return "\(error)"
        }
        return switch event {
        case .attemptStarted(let attempt): "started \(attempt)"
        case .attemptEnded(let attempt, let duration, let error):
            "ended \(attempt) \(String(describing: duration)) \(plain(error))"
        case .retryScheduled(let retry, let delay, let error): "retry \(retry) \(delay) \(plain(error))"
        case .retryGaveUp(let reason, let attempts, let error): "gave up \(reason) \(attempts) \(plain(error))"
        default: "\(event)"
        }
    }

    @Test func theEventsOfARetriedCallAreThePublishersOwn() async throws {
        let policy = ResiliencePolicy(retry: .init(maxRetries: 1, backoff: .constant(.seconds(1))))
        let published = Locked<[String]>([])
        let publisherPipeline = ResiliencePipeline(
            policy, events: ResilienceEvents { event in published.withLock { $0.append(Self.unwrapped(event)) } })
        let subscriber = TestSubscriber<Int, ResilienceError<BackendError>>()
        ScriptedBackend([.failure(.outage), .value], scheduler: clock.scheduler).publisher
            .resilient(publisherPipeline, scheduler: clock.scheduler).subscribe(subscriber)
        await clock.advance(by: .seconds(1))
        #expect(subscriber.values == [1])

        let awaited = Locked<[String]>([])
        let pipeline = ResiliencePipeline(
            policy, events: ResilienceEvents { event in awaited.withLock { $0.append(Self.unwrapped(event)) } })
        let backend = AsyncBackend([.failure(.outage), .value], clock: clock)
        let task = start(backend, pipeline)
        await eventually { clock.scheduler.scheduledCount == 1 }
        await clock.advance(by: .seconds(1))
        #expect(try await task.value == 1)
        #expect(
            awaited.withLock { $0 } == [
                "started 1", "ended 1 Optional(0.0 seconds) outage", "retry 1 1.0 seconds outage", "started 2",
                "ended 2 Optional(0.0 seconds) nil",
            ])
        #expect(awaited.withLock { $0 } == published.withLock { $0 })
    }
}

/// A stage with a publisher form only.
struct PassThroughStage: ResilienceStage {
    func apply<Output, Failure: Error, S: Scheduler>(
        to attempt: AnyPublisher<Output, ResilienceError<Failure>>, pipeline: ResiliencePipeline, scheduler: S
    ) -> AnyPublisher<Output, ResilienceError<Failure>> where S.SchedulerTimeType: TimelineInstant {
        attempt
    }
}
