import StreamsResilience
import Tracing

extension ResiliencePipeline {
    /// `execute(isSafeToRepeat:_:)` in a span named `operationName`, with a child span per attempt.
    ///
    /// The call's span starts as a child of the task's current `InstrumentationContext` (the
    /// request a server is handling, say) and ends when the call does. While the stages run, it is
    /// known to ``ResilienceTracing`` (and so to ``ResilienceObservability/events(for:logger:metrics:tracing:)``),
    /// which adds each retry (with its delay), give-up, circuit change, refusal, timeout and hedge
    /// to it as span events. Each attempt, and each hedge, runs in a child span named
    /// "`operationName` attempt", with `attempt.number` and `attempt.hedge`, which is the current
    /// context inside `operation`, so that the operation's own spans (an HTTP client's) nest under
    /// their attempt. An attempt the circuit breaker refuses never runs and has no span: the
    /// call's `circuit_rejected` event stands for it.
    ///
    /// A span whose work throws gets an error status, `error.type` (the error's type name) and
    /// the error recorded as its `redactedDescription`, never as itself: a tracer that records an
    /// error's description sees no secret. An attempt or call ended by cancellation (the caller's,
    /// a timeout's, a winning hedge's) is marked `cancelled` instead.
    ///
    /// `tracer` is `InstrumentationSystem.tracer` when nil: the one bootstrapped, or the one
    /// `withTracer(_:_:)` binds to the task.
    ///
    /// ```swift
    /// let users = ResiliencePipeline(.standardHTTP, events: ResilienceObservability.events(for: "users"))
    /// let user = try await users.execute(tracing: "GET /users/{id}") { attempt in
    ///     try await client.user(id)
    /// }
    /// ```
    public func execute<Value: Sendable>(
        tracing operationName: String, ofKind kind: SpanKind = .internal, tracer: (any Tracer)? = nil,
        isSafeToRepeat: Bool = true, _ operation: @escaping @Sendable (ResilienceAttempt) async throws -> Value
    ) async throws -> Value {
        try await execute(
            tracing: operationName, ofKind: kind, tracer: tracer, clock: ContinuousClock(), isSafeToRepeat: isSafeToRepeat,
            operation)
    }

    /// `execute(tracing:ofKind:tracer:isSafeToRepeat:_:)` reading time from `clock`, as
    /// `execute(clock:isSafeToRepeat:_:)` does.
    ///
    /// ```swift
    /// let user = try await users.execute(tracing: "GET /users/{id}", clock: SuspendingClock()) { _ in
    ///     try await client.user(id)
    /// }
    /// ```
    public func execute<C: Clock, Value: Sendable>(
        tracing operationName: String, ofKind kind: SpanKind = .internal, tracer: (any Tracer)? = nil, clock: C,
        isSafeToRepeat: Bool = true, _ operation: @escaping @Sendable (ResilienceAttempt) async throws -> Value
    ) async throws -> Value where C.Duration == Duration, C.Instant: TimelineInstant {
        let execution = TracedExecution(operationName: operationName, kind: kind, operation: operation)
        let tracer: any Tracer = tracer ?? InstrumentationSystem.tracer
        return try await execution.run(tracer: tracer) { attempt in
            try await execute(clock: clock, isSafeToRepeat: isSafeToRepeat, attempt)
        }
    }
}
