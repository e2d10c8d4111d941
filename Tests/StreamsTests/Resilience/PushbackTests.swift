import Dispatch
import Streams
@testable import StreamsResilience
import StreamsTesting
import Testing

/// A backend whose replies are its caller's to script, call by call, recording when each call
/// came: for the pushback stage, whose inputs are the server's hints and quotas.
final class HintingBackend<Value>: @unchecked Sendable {
    private let scheduler: TestScheduler
    private let reply: (_ number: Int, _ now: VirtualTime) -> Result<Value, ThrottledError>
    private let calls = Locked<[VirtualTime]>([])

    init(scheduler: TestScheduler, reply: @escaping (_ number: Int, _ now: VirtualTime) -> Result<Value, ThrottledError>) {
        self.scheduler = scheduler
        self.reply = reply
    }

    var callTimes: [VirtualTime] { calls.withLock { $0 } }

    var publisher: AnyPublisher<Value, ThrottledError> {
        Deferred { [self] in
            let now = scheduler.now
            let number = calls.withLock {
                $0.append(now)
                return $0.count
            }
            return reply(number, now).publisher
        }.eraseToAnyPublisher()
    }
}

/// A value that announces the quota of a server with fixed windows.
struct QuotaPage: ServerQuotaProviding, Equatable {
    let serverQuota: ServerQuota?
}

/// A server allowing `limit` calls in each window of one second (from zero): the quota it
/// announces to the call at `now`, or nil when it refuses that call.
final class WindowedServer: @unchecked Sendable {
    let limit: Int
    private let counts = Locked<[Int64: Int]>([:])
    let refusals = Locked(0)

    init(limit: Int) { self.limit = limit }

    func answer(at now: VirtualTime) -> QuotaPage? {
        let nanoseconds =
            now.timelineOffset.components.seconds * 1_000_000_000
            + now.timelineOffset.components.attoseconds / 1_000_000_000
        let window = nanoseconds / 1_000_000_000
        let count = counts.withLock { counts in
            counts[window, default: 0] += 1
            return counts[window]!
        }
        guard count <= limit else {
            refusals.withLock { $0 += 1 }
            return nil
        }
        let reset = Duration.nanoseconds((window + 1) * 1_000_000_000 - nanoseconds)
        return QuotaPage(serverQuota: ServerQuota(limit: limit, remaining: limit - count, reset: reset))
    }
}

@Suite("Pushback: the server's wait and quota, shared by the pipeline")
struct PushbackTests {
    typealias Guarded<Value> = TestSubscriber<Value, ResilienceError<ThrottledError>>

    static let pushbackOnly = ResiliencePolicy(
        retry: .init(maxRetries: 2, backoff: .constant(.milliseconds(100))), pushback: .init())

    @Test func aRefusalWithRetryAfterPausesEveryCallOfThePipelineUntilItsInstant() {
        let scheduler = TestScheduler()
        let pipeline = ResiliencePipeline(Self.pushbackOnly)
        let backend = HintingBackend<Int>(scheduler: scheduler) { number, _ in
            number == 1 ? .failure(ThrottledError(retryAfter: .seconds(2))) : .success(number)
        }
        let first = Guarded<Int>()
        backend.publisher.resilient(pipeline, scheduler: scheduler).subscribe(first)
        scheduler.advance(by: .milliseconds(500))
        let others = (0..<4).map { _ in Guarded<Int>() }
        for subscriber in others { backend.publisher.resilient(pipeline, scheduler: scheduler).subscribe(subscriber) }
        // Nothing reaches the server while it asked to wait.
        scheduler.advance(by: .milliseconds(1_499))
        #expect(backend.callTimes == [.seconds(0)])
        #expect(pipeline.pushbackLimiter?.wait(at: scheduler.now) == .milliseconds(1))
        scheduler.advance(by: .milliseconds(1))
        #expect(backend.callTimes == [.seconds(0)] + Array(repeating: .seconds(2), count: 5))
        #expect(([first] + others).map(\.completion) == Array(repeating: .finished, count: 5))
        // The paused calls waited without spending a retry.
        #expect(others.map(\.values).allSatisfy { $0.count == 1 })
    }

    @Test func withoutPushbackTheOtherCallsAreSentDuringTheWait() {
        let scheduler = TestScheduler()
        var policy = Self.pushbackOnly
        policy.pushback = nil
        let pipeline = ResiliencePipeline(policy)
        let backend = HintingBackend<Int>(scheduler: scheduler) { number, _ in
            number == 1 ? .failure(ThrottledError(retryAfter: .seconds(2))) : .success(number)
        }
        backend.publisher.resilient(pipeline, scheduler: scheduler).subscribe(Guarded<Int>())
        scheduler.advance(by: .milliseconds(500))
        backend.publisher.resilient(pipeline, scheduler: scheduler).subscribe(Guarded<Int>())
        #expect(backend.callTimes == [.seconds(0), VirtualTime(nanoseconds: 500_000_000)])
        #expect(pipeline.pushbackLimiter == nil)
    }

    @Test func aWaitLongerThanMaxWaitIsRefusedAtOnceWithTheTimeLeft() {
        let scheduler = TestScheduler()
        let pipeline = ResiliencePipeline(ResiliencePolicy(pushback: .init(maxWait: .seconds(1))))
        let backend = HintingBackend<Int>(scheduler: scheduler) { number, _ in
            number == 1 ? .failure(ThrottledError(retryAfter: .seconds(5))) : .success(number)
        }
        let first = Guarded<Int>()
        backend.publisher.resilient(pipeline, scheduler: scheduler).subscribe(first)
        #expect(first.failure == .upstream(ThrottledError(retryAfter: .seconds(5))))
        scheduler.advance(by: .milliseconds(500))
        let refused = Guarded<Int>()
        backend.publisher.resilient(pipeline, scheduler: scheduler).subscribe(refused)
        #expect(
            refused.failure
                == .limiterRejected(LimiterRejectedError(reason: .serverPushback, retryAfter: .milliseconds(4_500))))
        #expect(backend.callTimes == [.seconds(0)])
    }

    @Test func theRetryOfARefusedCallWaitsExactlyUntilTheInstant() {
        let scheduler = TestScheduler()
        var policy = ResiliencePolicy(
            retry: .init(maxRetries: 1, backoff: .constant(.milliseconds(100))), pushback: .init(maxWait: .zero))
        policy.retry?.retryAfterLimit = .seconds(10)
        let pipeline = ResiliencePipeline(policy)
        let backend = HintingBackend<Int>(scheduler: scheduler) { number, _ in
            number == 1 ? .failure(ThrottledError(retryAfter: .seconds(3))) : .success(number)
        }
        backend.publisher.resilient(pipeline, scheduler: scheduler).subscribe(Guarded<Int>())
        scheduler.advance(by: .seconds(1))
        // No wait allowed: refused with the time left, and the retry waits exactly that long.
        let second = Guarded<Int>()
        backend.publisher.resilient(pipeline, scheduler: scheduler).subscribe(second)
        scheduler.advance(by: .seconds(5))
        #expect(second.values == [2] || second.values == [3])
        #expect(backend.callTimes.filter { $0 > .seconds(0) } == [.seconds(3), .seconds(3)])
    }

    @Test func aSpentQuotaOnASuccessPausesUntilItsReset() {
        let scheduler = TestScheduler()
        let pipeline = ResiliencePipeline(ResiliencePolicy(pushback: .init(pacesToQuota: false)))
        let backend = HintingBackend<QuotaPage>(scheduler: scheduler) { _, _ in
            .success(QuotaPage(serverQuota: ServerQuota(remaining: 0, reset: .seconds(4))))
        }
        backend.publisher.resilient(pipeline, scheduler: scheduler).subscribe(Guarded<QuotaPage>())
        backend.publisher.resilient(pipeline, scheduler: scheduler).subscribe(Guarded<QuotaPage>())
        scheduler.advance(by: .seconds(10))
        #expect(backend.callTimes == [.seconds(0), .seconds(4)])
    }

    @Test func pacingKeepsCallsWithinTheAnnouncedQuotaWithoutARefusal() {
        let scheduler = TestScheduler()
        let pipeline = ResiliencePipeline(ResiliencePolicy(pushback: .init()))
        let server = WindowedServer(limit: 2)
        let backend = HintingBackend<QuotaPage>(scheduler: scheduler) { _, now in
            server.answer(at: now).map { .success($0) } ?? .failure(ThrottledError(retryAfter: nil))
        }
        let subscribers = (0..<7).map { _ in Guarded<QuotaPage>() }
        for subscriber in subscribers { backend.publisher.resilient(pipeline, scheduler: scheduler).subscribe(subscriber) }
        scheduler.advance(by: .seconds(10))
        #expect(server.refusals.withLock { $0 } == 0)
        #expect(
            backend.callTimes == [.seconds(0), .seconds(0), .seconds(1), .seconds(1), .seconds(2), .seconds(2), .seconds(3)])
        #expect(subscribers.allSatisfy { $0.completion == .finished })
    }

    @Test func withoutThePushbackStageTheSameCallsAreRefused() {
        let scheduler = TestScheduler()
        let pipeline = ResiliencePipeline(ResiliencePolicy())
        let server = WindowedServer(limit: 2)
        let backend = HintingBackend<QuotaPage>(scheduler: scheduler) { _, now in
            server.answer(at: now).map { .success($0) } ?? .failure(ThrottledError(retryAfter: nil))
        }
        for _ in 0..<7 { backend.publisher.resilient(pipeline, scheduler: scheduler).subscribe(Guarded<QuotaPage>()) }
        scheduler.advance(by: .seconds(10))
        #expect(server.refusals.withLock { $0 } == 5)
    }

    @Test func cancellingAPausedCallRemovesItsWaitAndSendsNothing() {
        let scheduler = TestScheduler()
        let pipeline = ResiliencePipeline(ResiliencePolicy(pushback: .init()))
        let backend = HintingBackend<Int>(scheduler: scheduler) { number, _ in .success(number) }
        pipeline.pushBack(for: .seconds(2), at: scheduler.now)
        let paused = Guarded<Int>()
        backend.publisher.resilient(pipeline, scheduler: scheduler).subscribe(paused)
        #expect(scheduler.scheduledCount == 1)
        paused.cancel()
        #expect(scheduler.scheduledCount == 0)
        scheduler.advance(by: .seconds(5))
        #expect(backend.callTimes.isEmpty)
        #expect(pipeline.pushbackLimiter?.state.withLock { $0.inFlight } == 0)
    }

    @Test func theStandardPolicyHasPushbackAndTheMemberwiseOneDoesNot() {
        #expect(ResiliencePolicy.standardHTTP.pushback == ResiliencePolicy.Pushback(maxWait: .seconds(60), pacesToQuota: true))
        #expect(ResiliencePolicy().pushback == nil)
        #expect(ResiliencePipeline(.standardHTTP).pushbackLimiter != nil)
    }

    @Test func aRegistryKeySharesItsPauseAndOtherKeysDoNot() {
        let scheduler = TestScheduler()
        let registry = ResilienceRegistry(policy: ResiliencePolicy(pushback: .init()))
        registry.pipeline(for: "a.example").pushBack(for: .seconds(2), at: scheduler.now)
        #expect(registry.pipeline(for: "a.example").pushbackLimiter?.wait(at: scheduler.now) == .seconds(2))
        #expect(registry.pipeline(for: "b.example").pushbackLimiter?.wait(at: scheduler.now) == .zero)
    }
}
