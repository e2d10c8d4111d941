import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// `execute` and `retrying` make the first attempt themselves when nothing but a retry is set
/// and nothing reads the clock around that attempt (no total timeout or `maxElapsed`, no
/// observer), and set the retry up only after a failure. A call must go exactly as it goes
/// through the stages: each test runs the same script both ways and compares what happened.
@MainActor
@Suite("execute and retrying: the first attempt before the retry's set-up")
struct FirstAttemptShortcutTests {
    /// What one call did, as the caller and the backend saw it.
    struct Call: Equatable {
        let outcome: String
        let calls: [AsyncBackend.Call]
    }

    /// What a series of calls did, and what they left in the budget.
    struct Run: Equatable {
        let calls: [Call]
        let budgetLeft: Int?
        let giveUps: [String]
    }

    /// A pipeline of `policy`: without an observer (the shortcut, when the policy has no stage but
    /// a retry) or with one that does nothing (every call runs the stages).
    static func pipeline(_ policy: ResiliencePolicy, observed: Bool) -> ResiliencePipeline {
        observed ? ResiliencePipeline(policy, events: ResilienceEvents { _ in }) : ResiliencePipeline(policy)
    }

    /// The error of `result`, or nil for a value.
    static func error(of result: Result<Int, any Error>) -> (any Error)? {
        if case .failure(let error) = result { return error }
        return nil
    }

    /// `outcome` as text: the value, or the error's type and value.
    static func describe(_ outcome: Result<Int, any Error>) -> String {
        switch outcome {
        case .success(let value): "returned \(value)"
        case .failure(let error): "threw \(type(of: error)) \(error)"
        }
    }

    /// Runs one call per script, one after the other, through `pipeline(policy, observed:)`, on a
    /// clock of their own that moves to each wake-up until the call ends.
    func run(_ policy: ResiliencePolicy, observed: Bool, scripts: [[AsyncBackend.Reply]]) async -> Run {
        let giveUps = Locked<[String]>([])
        var policy = policy
        policy.onRetryGiveUp = { report in giveUps.withLock { $0.append("\(report.reason) after \(report.attempts)") } }
        let pipeline = Self.pipeline(policy, observed: observed)
        let clock = TestClock()
        var calls: [Call] = []
        for script in scripts {
            let backend = AsyncBackend(script, clock: clock)
            let done = Locked(false)
            let task = Task {
                defer { done.withLock { $0 = true } }
                return try await pipeline.execute(clock: clock, backend.call)
            }
            await Self.advance(clock, until: done)
            calls.append(Call(outcome: Self.describe(await task.result), calls: backend.calls))
        }
        return Run(calls: calls, budgetLeft: pipeline.retryBudget?.available, giveUps: giveUps.withLock { $0 })
    }

    /// Moves `clock` to each wake-up until `done` holds.
    static func advance(_ clock: TestClock, until done: Locked<Bool>) async {
        while true {
            await eventually { done.withLock { $0 } || clock.scheduler.scheduledCount > 0 }
            if done.withLock({ $0 }) { return }
            await clock.run()
        }
    }

    @Test func aRetryOnlyPolicyRetriesAsThroughTheStages() async {
        var policy = ResiliencePolicy(
            retry: .init(
                maxRetries: 3, backoff: .exponential(initial: .seconds(1), jitter: .full),
                budget: .init(capacity: 20, retryCost: 5, successRefill: 1)))
        // The jitter of every call is drawn from the pipeline's seeded sequence: the shortcut
        // must draw one seed per call, before the first attempt, as the retry stage does.
        policy.jitterSeed = 7
        let scripts: [[AsyncBackend.Reply]] = [
            [.failure(.outage), .throttled(.seconds(2)), .value],
            [.value],
            [.failure(.outage)],
            [.failure(.badRequest)],
            [.spuriousCancellation, .value],
        ]
        let shortcut = await run(policy, observed: false, scripts: scripts)
        let staged = await run(policy, observed: true, scripts: scripts)
        #expect(shortcut == staged)
        #expect(shortcut.calls.map(\.calls.count) == [3, 1, 3, 1, 1])
        #expect(shortcut.calls.map(\.outcome).first == "returned 1")
        #expect(shortcut.giveUps == ["budgetEmpty after 3", "notRetryable after 1", "notRetryable after 1"])
    }

    @Test func aPolicyWithoutStagesMakesOneAttemptAsThroughTheStages() async {
        let scripts: [[AsyncBackend.Reply]] = [[.value], [.failure(.outage)], [.spuriousCancellation]]
        let shortcut = await run(ResiliencePolicy(), observed: false, scripts: scripts)
        let staged = await run(ResiliencePolicy(), observed: true, scripts: scripts)
        #expect(shortcut == staged)
        #expect(
            shortcut.calls.map(\.outcome) == [
                "returned 1", "threw BackendError outage", "threw CancellationError CancellationError()",
            ])
    }

    @Test func aCallerCancelledBeforeTheFirstAttemptIsNeverCalledBack() async {
        for policy in [ResiliencePolicy(), .retrying(3, backoff: .immediate)] {
            for observed in [false, true] {
                let pipeline = Self.pipeline(policy, observed: observed)
                let clock = TestClock()
                let backend = AsyncBackend([.value], clock: clock)
                let task = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    return try await pipeline.execute(clock: clock, backend.call)
                }
                #expect(Self.error(of: await task.result) is CancellationError)
                #expect(backend.callCount == 0)
            }
        }
    }

    @Test func aCallerCancelledDuringTheFirstAttemptGetsCancellationErrorAndNoRetry() async {
        var outcomes: [String] = []
        var calls: [[AsyncBackend.Call]] = []
        for observed in [false, true] {
            let pipeline = Self.pipeline(.retrying(3, backoff: .immediate), observed: observed)
            let clock = TestClock()
            let backend = AsyncBackend([.hang, .value], clock: clock)
            let task = Task { try await pipeline.execute(clock: clock, backend.call) }
            await eventually { clock.scheduler.scheduledCount == 1 }
            task.cancel()
            outcomes.append(Self.describe(await task.result))
            calls.append(backend.calls)
        }
        #expect(outcomes == ["threw CancellationError CancellationError()", "threw CancellationError CancellationError()"])
        #expect(calls[0] == calls[1])
        #expect(calls[0].map(\.cancelled) == [true])
    }

    /// Runs `retrying` over `script` (the reply of each attempt, the last one repeated): on the
    /// continuous clock through its shortcut, or through the overload that takes a clock, which
    /// always sets the loop up.
    func retryingRun(_ script: [BackendError?], shortcut: Bool, budget: RetryBudget) async -> [String] {
        var log: [String] = []
        var attempts = 0
        let operation = { () async throws -> Int in
            MainActor.assertIsolated()
            attempts += 1
            if let error = script[min(attempts, script.count) - 1] { throw error }
            return attempts
        }
        let onRetry = { (attempt: RetryAttempt<any Error>) in log.append("\(attempt)") }
        let onGiveUp = { (report: RetryReport<any Error>) in log.append("\(report)") }
        let outcome: Result<Int, any Error>
        do {
            if shortcut {
                outcome = .success(
                    try await retrying(3, backoff: .immediate, budget: budget, onRetry: onRetry, onGiveUp: onGiveUp, operation))
            } else {
                var random = SystemRandomNumberGenerator()
                outcome = .success(
                    try await retrying(
                        3, backoff: .immediate, budget: budget, clock: ContinuousClock(), random: &random, onRetry: onRetry,
                        onGiveUp: onGiveUp, operation))
            }
        } catch {
            outcome = .failure(error)
        }
        return log + [Self.describe(outcome), "attempts \(attempts)", "budget \(budget.available)"]
    }

    @Test func retryingRetriesAsItsLoopDoes() async {
        // A first attempt that succeeds refills the budget (the third script), which runs out in
        // the last one.
        let scripts: [[BackendError?]] = [
            [nil], [.outage, .outage, nil], [nil], [.outage, .badRequest], [.badRequest], [.outage],
        ]
        let shortcutBudget = RetryBudget(capacity: 20, retryCost: 5, successRefill: 1)
        let loopBudget = RetryBudget(capacity: 20, retryCost: 5, successRefill: 1)
        for script in scripts {
            let shortcut = await retryingRun(script, shortcut: true, budget: shortcutBudget)
            let loop = await retryingRun(script, shortcut: false, budget: loopBudget)
            #expect(shortcut == loop)
        }
        #expect(
            await retryingRun([.outage, .outage], shortcut: true, budget: shortcutBudget).suffix(3) == [
                "threw BackendError outage", "attempts 1", "budget 2",
            ])
    }

    @Test func retryingCancelledBeforeTheFirstAttemptNeverCallsTheOperation() async {
        let task = Task { () async throws -> Int in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await retrying(3, backoff: .immediate) { () async throws -> Int in
                Issue.record("The operation ran in a cancelled call")
                return 1
            }
        }
        #expect(Self.error(of: await task.result) is CancellationError)
    }
}
