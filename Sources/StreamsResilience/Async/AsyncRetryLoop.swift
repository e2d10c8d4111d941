import Streams

/// The selective retry of the `async` face: `retrying(_:when:backoff:…)` and the retry stage of
/// ``ResiliencePipeline/execute(isSafeToRepeat:request:_:)``.
///
/// After an attempt throws, in the order of `retry(_:when:backoff:scheduler:)`: a caller's
/// cancel ends the call with `CancellationError`, never retried; `when` (and, for a call that is
/// not safe to repeat, "not after a timeout") decides whether the error is retried; then
/// `RetryRule` judges the count, the wait against `maxElapsed`, the server's hint and the budget;
/// `onRetry` and the events are told; the wait runs on the clock and is cut short by a cancel.
/// The events and reports are the publishers' own.
struct AsyncRetryLoop<C: Clock> where C.Duration == Duration {
    let maxRetries: Int
    let shouldRetry: (any Error) -> Bool
    let backoff: Backoff
    let retryAfterLimit: Duration
    let maxElapsed: Duration?
    let budget: RetryBudget?
    /// Whether the call may be sent again after a timeout: what the caller said, or, in a
    /// pipeline's call, `RepeatSafety.isSafe` (what its requests say of themselves as well).
    let isSafeToRepeat: @Sendable () -> Bool
    let clock: C
    let events: ResilienceEvents
    let onRetry: ((RetryAttempt<any Error>) -> Void)?
    let onGiveUp: ((RetryReport<any Error>) -> Void)?

    /// Runs `attempt` (given its number, from 1) until it returns, or the retry gives up and
    /// throws its last error unchanged.
    ///
    /// With `firstFailure`, the caller has made the first attempt as this loop would have (a
    /// cancellation check, then the attempt: the loop reads the clock before and around it only
    /// for `maxElapsed` and an observer, so there must be neither), it failed with
    /// `firstFailure` while the caller was not cancelled, and the loop goes on from that failure.
    ///
    /// With `handles`, a returned value it accepts is judged as a failure would be (`when` is
    /// not asked: the value is handled), told to the events and reports as an
    /// `AttemptOutcome`; when the retry gives up on it, the value is returned.
    func run<Value, G: RandomNumberGenerator>(
        isolation: isolated (any Actor)? = #isolation, using random: inout G, afterFirstFailure firstFailure: (any Error)? = nil,
        handling handles: ((Value) -> Bool)? = nil, _ attempt: (Int) async throws -> Value
    ) async throws -> Value {
        assert(
            firstFailure == nil || (maxElapsed == nil && !events.isObserved),
            "The caller makes the first attempt only when nothing times it: no maxElapsed, no observer")
        let start = maxElapsed == nil ? nil : clock.now
        var previous: Duration?
        var number = 1
        var madeFailure = firstFailure
        while true {
            let failure: any Error
            var handledValue: Value?
            if let made = madeFailure {
                madeFailure = nil
                failure = made
            } else {
                try Task.checkCancellation()
                let began = events.isObserved ? clock.now : nil
                events.emit(.attemptStarted(attempt: number))
                do {
                    let value = try await attempt(number)
                    guard let handles, handles(value) else {
                        events.emit(
                            .attemptEnded(attempt: number, duration: began.map { $0.duration(to: clock.now) }, error: nil))
                        budget?.recordSuccess()
                        return value
                    }
                    handledValue = value
                    failure = AttemptOutcome<Value, any Error>.value(value)
                } catch {
                    // The caller's cancel: the attempt's error, whatever it is, is not a failure.
                    if Task.isCancelled { throw CancellationError() }
                    failure = error
                }
                events.emit(.attemptEnded(attempt: number, duration: began.map { $0.duration(to: clock.now) }, error: failure))
            }
            let wait: Duration
            let cost: Int
            switch judge(failure, handled: handledValue != nil, attempt: number, previous: previous, using: &random, start: start)
            {
            case .giveUp(let reason):
                events.emit(.retryGaveUp(reason: reason, attempts: number, error: failure))
                onGiveUp?(RetryReport(reason: reason, attempts: number, error: failure))
                // The last outcome is the caller's: a handled value is returned, not an error.
                if let handledValue { return handledValue }
                throw failure
            case .retry(let delay, let backoffDelay, let tokens):
                previous = backoffDelay
                wait = delay
                cost = tokens
            }
            events.emit(.retryScheduled(retry: number, delay: wait, error: failure))
            onRetry?(RetryAttempt(retry: number, error: failure, delay: wait))
            do {
                try await clock.sleep(for: wait)
            } catch {
                budget?.refund(cost)
                throw CancellationError()
            }
            number += 1
        }
    }

    /// Whether, and after how long, `error` is retried (`handled`: it stands for a value that
    /// `handles` accepted, and `when` is not asked).
    private func judge<G: RandomNumberGenerator>(
        _ error: any Error, handled: Bool, attempt: Int, previous: Duration?, using random: inout G, start: C.Instant?
    ) -> RetryRule.Verdict {
        guard handled || shouldRetry(error) else { return .giveUp(RetryRule.reason(for: error, otherwise: .notRetryable)) }
        if ResilienceErrorKind.forbidsRepeat(error, isSafeToRepeat: isSafeToRepeat()) { return .giveUp(.notRetryable) }
        let now = start == nil ? nil : clock.now
        return RetryRule.judge(
            error, retry: attempt, maxRetries: maxRetries, backoff: backoff, previous: previous, using: &random,
            retryAfterLimit: retryAfterLimit, budget: budget
        ) { wait in
            guard let start, let now, let maxElapsed else { return false }
            return now.advanced(by: wait) > start.advanced(by: maxElapsed)
        }
    }
}
