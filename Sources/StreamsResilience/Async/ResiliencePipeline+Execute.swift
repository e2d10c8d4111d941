import Streams

extension ResiliencePipeline {
    /// Runs `operation` through every stage of the policy, as `resilient(_:scheduler:)` guards a
    /// publisher, drawing from the same shared breaker, budget and limiters: a publisher and an
    /// `async` call guarded by one pipeline see one outage. Time is read from the continuous
    /// clock, whose instants share `DispatchQueue`'s time line.
    ///
    /// It returns what an attempt returned, or throws:
    /// - the operation's own error, unchanged, when the retry gives up (or there is none);
    /// - ``AttemptTimeoutError``, ``CircuitOpenError``, ``DeadlineExceededError`` or
    ///   ``LimiterRejectedError`` when that stage stopped the call;
    /// - `CancellationError` when the calling task is cancelled: the running attempt (its task is
    ///   cancelled), any wait for a permit, a token or a retry end at once, and nothing is
    ///   retried. An operation that throws `CancellationError` while the caller is not cancelled
    ///   has failed, like any other error (its category decides).
    ///
    /// The per-attempt timeout and the total timeout run the attempts in child tasks and cancel
    /// them when the time is up; hedges run as child tasks beside the first attempt, and the
    /// losers are cancelled. An operation that ignores cancellation holds the call until it
    /// returns (its outcome is then discarded).
    ///
    /// With `isSafeToRepeat` false (a POST without an idempotency key, say), the call is never
    /// hedged, and never retried after a timeout, which may have cut it off after it took
    /// effect; a refusal (open circuit, limiter) is still retried, since the operation did not
    /// run. The operation's own errors are retried as their categories say. A request publisher
    /// of StreamsNetworking that the operation subscribes to (through `values`, say) tells the
    /// call itself when its request is a POST without an `Idempotency-Key`; pass
    /// `isSafeToRepeat: false` for any other operation that must not run twice.
    ///
    /// `request` names the call's request (its method and origin) in every event of the call
    /// (see ``ResilienceEventContext``).
    ///
    /// ```swift
    /// let payments = ResiliencePipeline(.standardHTTP)
    /// let receipt = try await payments.execute { attempt in
    ///     try await client.charge(order, idempotencyKey: key)
    /// }
    /// ```
    @inlinable
    public func execute<Value: Sendable>(
        isSafeToRepeat: Bool = true, request: ResilienceRequestIdentity? = nil,
        _ operation: @escaping @Sendable (ResilienceAttempt) async throws -> Value
    ) async throws -> Value {
        try await execute(clock: ContinuousClock(), isSafeToRepeat: isSafeToRepeat, request: request, operation)
    }

    /// `execute(isSafeToRepeat:request:_:)` reading time from `clock`: StreamsTesting's `TestClock` in a
    /// test (virtual time, shared with a `TestScheduler`), or another clock whose instants are
    /// on the time line of the publishers that share the pipeline.
    ///
    /// ```swift
    /// let clock = TestClock()
    /// let task = Task { try await pipeline.execute(clock: clock) { _ in try await flaky() } }
    /// await clock.advance(by: .seconds(1))
    /// ```
    @inlinable
    public func execute<C: Clock, Value: Sendable>(
        clock: C, isSafeToRepeat: Bool = true, request: ResilienceRequestIdentity? = nil,
        _ operation: @escaping @Sendable (ResilienceAttempt) async throws -> Value
    ) async throws -> Value where C.Duration == Duration, C.Instant: TimelineInstant {
        // With no stage but the retry and nothing that reads the clock, the first attempt is
        // made here, in the caller's specialised code, as the stages would make it; their set-up
        // (in code generic over the value, which looks its types up at run time) is left to a
        // failure. See "The async face" in Docs/Performance.md.
        switch asyncShortcut {
        case .everyStage:
            return try await runStages(clock: clock, isSafeToRepeat: isSafeToRepeat, request: request, operation)
        case .singleAttempt:
            try Task.checkCancellation()
            return try await operation(ResilienceAttempt(number: 1, hedge: 0))
        case .firstAttemptOfRetry:
            try Task.checkCancellation()
            var random = makeRandom()
            do {
                let value = try await operation(ResilienceAttempt(number: 1, hedge: 0))
                retryBudget?.recordSuccess()
                return value
            } catch {
                // The caller's cancel: the attempt's error, whatever it is, is not a failure.
                if Task.isCancelled { throw CancellationError() }
                return try await retry(
                    afterFirstFailure: error, using: &random, clock: clock, isSafeToRepeat: isSafeToRepeat, operation)
            }
        }
    }

    /// Every stage of the policy around `operation`.
    @usableFromInline
    func runStages<C: Clock, Value: Sendable>(
        clock: C, isSafeToRepeat: Bool, request: ResilienceRequestIdentity?,
        _ operation: @escaping @Sendable (ResilienceAttempt) async throws -> Value
    ) async throws -> Value where C.Duration == Duration, C.Instant: TimelineInstant {
        try await AsyncExecution(
            pipeline: self, clock: clock, safety: RepeatSafety(isSafeToRepeat), request: request, operation: operation
        ).run()
    }

    /// The policy's retry, after `execute`'s first attempt (the policy has no other stage)
    /// failed with `failure` while the caller was not cancelled; `random` was drawn before that
    /// attempt, where the retry stage draws it.
    @usableFromInline
    func retry<C: Clock, Value: Sendable>(
        afterFirstFailure failure: any Error, using random: inout any RandomNumberGenerator & Sendable, clock: C,
        isSafeToRepeat: Bool, _ operation: @escaping @Sendable (ResilienceAttempt) async throws -> Value
    ) async throws -> Value where C.Duration == Duration, C.Instant: TimelineInstant {
        try await AsyncExecution(
            pipeline: self, clock: clock, safety: RepeatSafety(isSafeToRepeat), request: nil, operation: operation
        )
        .retried(afterFirstFailure: failure, using: &random)
    }
}
