import Streams

/// One call of ``ResiliencePipeline/execute(clock:isSafeToRepeat:request:_:)``: the policy's stages in
/// the publishers' order (limiters, total timeout, retry, hedging, pushback, circuit breaker,
/// attempt timeout, outermost first), each drawing from the pipeline's shared objects and reading time
/// from `clock`.
struct AsyncExecution<C: Clock, Value: Sendable>: Sendable where C.Duration == Duration, C.Instant: TimelineInstant {
    let pipeline: ResiliencePipeline
    let clock: C
    /// What the caller said and what the call's requests say of themselves (its operation runs
    /// with it bound): read when an attempt times out, before a hedged copy, and by the retry.
    let safety: RepeatSafety
    let operation: @Sendable (ResilienceAttempt) async throws -> Value
    /// The call's events: the pipeline's, telling the call's attempt and request.
    let events: ResilienceEvents
    /// When the total timeout ends, once it runs.
    private var deadline: C.Instant?

    init(
        pipeline: ResiliencePipeline, clock: C, safety: RepeatSafety, request: ResilienceRequestIdentity?,
        recorder: ResilienceReportRecorder? = nil, operation: @escaping @Sendable (ResilienceAttempt) async throws -> Value
    ) {
        self.pipeline = pipeline
        self.clock = clock
        self.safety = safety
        self.operation = operation
        events = pipeline.events.forCall(request: request, recorder: recorder)
    }
    /// Where the clock stands on the time line the shared breaker and limiters compare.
    private var now: Duration { clock.now.timelineOffset }

    func run() async throws -> Value {
        try await safety.bound { try await admitted() }
    }

    /// The call once bound to its safety: the limiters, then the other stages.
    private func admitted() async throws -> Value {
        try Task.checkCancellation()
        if let limiter = pipeline.rateLimiter { try await takeToken(from: limiter) }
        guard let limiter = pipeline.concurrencyLimiter else { return try await bounded() }
        try await takePermit(from: limiter)
        defer { limiter.release() }
        return try await bounded()
    }

    /// A token now, after a wait within the limiter's `maxWait`, or its refusal.
    private func takeToken(from limiter: RateLimiter) async throws {
        let now = now
        let admission = limiter.acquire(at: now, during: events)
        var reservedAt = now
        if case .delay(let wait) = admission { reservedAt += wait }
        try await admitted(admission) { limiter.refund(1, reservedAt: reservedAt) }
    }

    /// Waits as a timed gate's `admission` says, or throws its refusal; a cancel during the wait
    /// gives the place back (`givingBack`) and throws `CancellationError`.
    private func admitted(_ admission: GateAdmission, givingBack: () -> Void) async throws {
        switch admission {
        case .permit:
            return
        case .reject(let refusal):
            throw refusal
        case .delay(let wait):
            do {
                try await clock.sleep(for: wait)
            } catch {
                givingBack()
                throw CancellationError()
            }
        }
    }

    /// A permit now, after a wait in the queue, or its refusal.
    private func takePermit(from limiter: ConcurrencyLimiter) async throws {
        let waiter = AsyncPermitWaiter(limiter: limiter)
        switch limiter.acquire(waiter, during: events) {
        case .permit:
            return
        case .reject(let refusal):
            throw refusal
        case .enqueued:
            guard await waiter.wait() else { throw CancellationError() }
        }
    }

    /// The retry (or the one attempt), within the total timeout.
    private func bounded() async throws -> Value {
        guard let total = pipeline.policy.totalTimeout else { return try await retried() }
        let events = events
        var bounded = self
        bounded.deadline = clock.now.advanced(by: total)
        return try await AsyncTimeLimit.run(total, clock: clock) {
            events.emit(.deadlineExceeded(deadline: total))
            return DeadlineExceededError(deadline: total)
        } _: { [bounded] in
            try await bounded.retried()
        }
    }

    /// The policy's retry around each attempt, or the one attempt.
    private func retried() async throws -> Value {
        guard let retry = pipeline.policy.retry else { return try await hedged(number: 1) }
        var random = pipeline.makeRandom()
        return try await retryLoop(retry).run(using: &random, handling: valueHandler) { number in
            try await hedged(number: number)
        }
    }

    /// The policy's retry, after `execute` made the first attempt (with the stages that are set:
    /// none but the retry) and it failed with `failure` while the caller was not cancelled;
    /// `random` was drawn before that attempt, as `retried()` draws it.
    func retried(
        afterFirstFailure failure: any Error, using random: inout any RandomNumberGenerator & Sendable
    ) async throws -> Value {
        guard let retry = pipeline.policy.retry else { preconditionFailure("AsyncExecution retries only a policy with a retry") }
        return try await retryLoop(retry).run(using: &random, afterFirstFailure: failure, handling: valueHandler) { number in
            try await hedged(number: number)
        }
    }

    /// The policy's judgement of a returned value, when its `retryWhen` judges values.
    private var valueHandler: ((Value) -> Bool)? {
        let policy = pipeline.policy
        guard policy.retryWhen != nil else { return nil }
        return { policy.retries(value: $0) }
    }

    /// The retry loop of the policy's `retry`, deciding with the policy's rule (the publishers'
    /// own).
    private func retryLoop(_ retry: ResiliencePolicy.Retry) -> AsyncRetryLoop<C> {
        let policy = pipeline.policy
        let safety = safety
        return AsyncRetryLoop(
            maxRetries: retry.maxRetries, shouldRetry: { policy.retries(failure: $0, isSafeToRepeat: safety.isSafe) },
            backoff: retry.backoff,
            retryAfterLimit: retry.retryAfterLimit, maxElapsed: pipeline.policy.totalTimeout, budget: pipeline.retryBudget,
            isSafeToRepeat: { safety.isSafe }, clock: clock, events: events, onRetry: nil,
            onGiveUp: pipeline.policy.onRetryGiveUp)
    }

    /// Attempt `number`, hedged when the policy hedges and, before each copy, the call is safe
    /// to repeat.
    private func hedged(number: Int) async throws -> Value {
        guard let stage = pipeline.policy.hedging else { return try await paced(ResilienceAttempt(number: number, hedge: 0)) }
        guard let hedging = stage as? Hedging else {
            preconditionFailure(
                "execute(_:) runs the Hedging stage only; the policy's \(type(of: stage)) has no async form: "
                    + "use it with resilient(_:scheduler:), or leave ResiliencePolicy.hedging nil")
        }
        guard safety.isSafe, hedging.maxAttempts > 1 else {
            return try await paced(ResilienceAttempt(number: number, hedge: 0))
        }
        return try await AsyncHedge(hedging: hedging, pipeline: pipeline, clock: clock, safety: safety, events: events).run {
            hedge in
            try await paced(ResilienceAttempt(number: number, hedge: hedge))
        }
    }

    /// One attempt once the pushback limiter lets it start: at once, after waiting for the
    /// server's instant (a cancel ends the wait and gives the place back), or refused.
    private func paced(_ attempt: ResilienceAttempt) async throws -> Value {
        guard let limiter = pipeline.pushbackLimiter else { return try await guarded(attempt) }
        try await admitted(limiter.acquire(at: now, during: events), givingBack: limiter.cancelledWaiting)
        defer { limiter.finished() }
        return try await guarded(attempt)
    }

    /// One attempt through the circuit breaker, within the attempt timeout. The breaker counts
    /// the attempt's outcome (a timeout counts as a failure); an attempt cancelled by its caller
    /// or by a winning hedge is not counted.
    private func guarded(_ attempt: ResilienceAttempt) async throws -> Value {
        guard let breaker = pipeline.circuitBreaker else { return try await timed(attempt) }
        let ticket: CircuitTicket
        switch breaker.acquire(at: now, during: events) {
        case .permit(let permitted), .permitAndNotify(let permitted): ticket = permitted
        case .reject(let refusal), .rejectAndNotify(let refusal): throw refusal
        }
        do {
            let value = try await timed(attempt)
            let failed = pipeline.policy.circuitBreakerWhen == nil ? false : pipeline.policy.breakerCounts(value: value)
            breaker.record(ticket, failed: failed, at: now, during: events)
            return value
        } catch {
            if Task.isCancelled {
                breaker.release(ticket)
            } else {
                breaker.record(ticket, failed: pipeline.policy.breakerCounts(error), at: now, during: events)
            }
            throw error
        }
    }

    /// `attempt` with the time it has: the attempt timeout, or what is left before the
    /// deadline if that is sooner.
    private func withTimeLeft(_ attempt: ResilienceAttempt) -> ResilienceAttempt {
        var left = pipeline.policy.attemptTimeout
        if let deadline {
            let remaining = max(.zero, clock.now.duration(to: deadline))
            left = min(left ?? remaining, remaining)
        }
        guard let left else { return attempt }
        return ResilienceAttempt(number: attempt.number, hedge: attempt.hedge, timeLeft: left)
    }

    /// The operation, within the attempt timeout.
    private func timed(_ attempt: ResilienceAttempt) async throws -> Value {
        let attempt = withTimeLeft(attempt)
        let operation = observed
        guard let timeout = pipeline.policy.attemptTimeout else { return try await operation(attempt) }
        let events = events
        let safety = safety
        return try await AsyncTimeLimit.run(timeout, clock: clock) {
            events.emit(.attemptTimedOut(timeout: timeout))
            return AttemptTimeoutError(timeout: timeout, isSafeToRepeat: safety.isSafe)
        } _: {
            try await operation(attempt)
        }
    }

    /// The operation, telling the pushback limiter (if any) what each outcome says about the
    /// server: its announced quota, and a failure's `Retry-After`.
    private var observed: @Sendable (ResilienceAttempt) async throws -> Value {
        guard let limiter = pipeline.pushbackLimiter else { return operation }
        let operation = operation
        let clock = clock
        return { attempt in
            do {
                let value = try await operation(attempt)
                limiter.observe(value: value, at: clock.now.timelineOffset)
                return value
            } catch {
                limiter.observe(failure: error, at: clock.now.timelineOffset)
                throw error
            }
        }
    }
}
