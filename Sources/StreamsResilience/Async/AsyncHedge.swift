import Streams

/// The ``Hedging`` stage of the `async` face: the attempts run as child tasks; the first to
/// return wins and the others are cancelled at once, as `hedge(maxAttempts:delay:…)` does for
/// publishers.
///
/// At most `maxAttempts` attempts in all; the next starts `delay` after the latest one started,
/// or at once when an attempt fails with a non-fatal error. A fatal failure ends the call with
/// that error; when every attempt has failed and no more can be made, the last failure is
/// thrown. Each extra attempt takes `retryCost` from the pipeline's budget and is not made while
/// its breaker is not closed; a refused attempt uses up its place. The winner refills the budget.
struct AsyncHedge<C: Clock>: Sendable where C.Duration == Duration {
    let hedging: Hedging
    let pipeline: ResiliencePipeline
    let clock: C
    /// Read before each extra attempt: a call that is not safe to repeat is never hedged.
    let safety: RepeatSafety
    /// The call's events.
    let events: ResilienceEvents

    /// What a child task brought.
    enum Outcome<Value: Sendable>: Sendable {
        case returned(Value)
        case failed(any Error)
        /// The wait of generation `generation` ended; stale waits are ignored.
        case waited(generation: Int)
        case waitCancelled
    }

    /// Runs `attempt` (given its hedge number, from 0) and its hedges.
    func run<Value: Sendable>(_ attempt: @escaping @Sendable (Int) async throws -> Value) async throws -> Value {
        let hedging = hedging
        let clock = clock
        let events = events
        let result: Result<Value, any Error> = await withTaskGroup(of: Outcome<Value>.self) { group in
            var started = 0
            var running = 0
            var generation = 0
            var lastFailure: (any Error)?

            /// Starts the next attempt if the budget and the breaker let it (a refusal uses up
            /// its place), then the wait for the one after.
            func startNext(afterFailure failure: (any Error)?) {
                let hedge = started
                started += 1
                let admitted =
                    hedge == 0
                    || (safety.isSafe && pipeline.circuitBreaker.map { $0.currentState == .closed } ?? true
                        && pipeline.retryBudget?.withdrawRetry() ?? true)
                if admitted {
                    if hedge > 0 { events.emit(.hedgeStarted(attempt: hedge + 1, afterFailure: failure)) }
                    running += 1
                    group.addTask {
                        do { return .returned(try await attempt(hedge)) } catch { return .failed(error) }
                    }
                }
                guard started < hedging.maxAttempts else { return }
                generation += 1
                let armed = generation
                group.addTask {
                    do {
                        try await clock.sleep(for: hedging.delay)
                        return .waited(generation: armed)
                    } catch {
                        return .waitCancelled
                    }
                }
            }

            /// Starts the next attempt now, and more while every one is refused and none runs.
            func startNow(afterFailure failure: (any Error)?) {
                guard started < hedging.maxAttempts else { return }
                startNext(afterFailure: failure)
                while running == 0, started < hedging.maxAttempts { startNext(afterFailure: failure) }
            }

            startNext(afterFailure: nil)
            while let outcome = await group.next() {
                switch outcome {
                case .returned(let value):
                    group.cancelAll()
                    pipeline.retryBudget?.recordSuccess()
                    return .success(value)
                case .failed(let error):
                    running -= 1
                    lastFailure = error
                    let nonFatal = !Task.isCancelled && hedging.nonFatal.contains(error.resolveCategory())
                    guard nonFatal else {
                        group.cancelAll()
                        return .failure(error)
                    }
                    startNow(afterFailure: error)
                    if running == 0 {
                        group.cancelAll()
                        return .failure(error)
                    }
                case .waited(let armed):
                    guard armed == generation, started < hedging.maxAttempts else { continue }
                    startNow(afterFailure: nil)
                    if running == 0, let lastFailure {
                        group.cancelAll()
                        return .failure(lastFailure)
                    }
                case .waitCancelled:
                    continue
                }
            }
            preconditionFailure("AsyncHedge ended without an outcome")
        }
        return try result.get()
    }
}
