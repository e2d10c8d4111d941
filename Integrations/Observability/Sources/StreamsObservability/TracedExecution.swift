import StreamsResilience
import Tracing

/// One call of `ResiliencePipeline.execute(tracing:…)`: the call's span around the pipeline's
/// stages, known to the ``ResilienceTracing`` observer through ``ResilienceCallSpan``, and a
/// child span around each attempt.
struct TracedExecution<Value: Sendable>: Sendable {
    let operationName: String
    let kind: SpanKind
    let operation: @Sendable (ResilienceAttempt) async throws -> Value

    /// Runs `stages` (the pipeline's `execute`, given the traced operation) in the call's span,
    /// started by `tracer` as a child of the task's current context.
    func run<T: Tracer>(
        tracer: T, _ stages: (@escaping @Sendable (ResilienceAttempt) async throws -> Value) async throws -> Value
    ) async throws -> Value {
        let span = tracer.startSpan(operationName, context: InstrumentationContext.current ?? .topLevel, ofKind: kind)
        defer { span.end() }
        let attempt = tracedAttempt(tracer: tracer, parent: span.context)
        do {
            return try await InstrumentationContext.$current.withValue(span.context) {
                try await ResilienceCallSpan.$current.withValue(span) { try await stages(attempt) }
            }
        } catch {
            Self.end(span, failedWith: error)
            throw error
        }
    }

    /// The operation in a span of its own per attempt (and per hedge), a child of the call's span,
    /// with `attempt.number` and `attempt.hedge`. Inside it the span is the task's current
    /// context, for the operation's own spans, and no call span is known.
    private func tracedAttempt<T: Tracer>(
        tracer: T, parent: InstrumentationContext
    ) -> @Sendable (ResilienceAttempt) async throws -> Value {
        let name = "\(operationName) attempt"
        let operation = operation
        return { attempt in
            let span = tracer.startSpan(name, context: parent, ofKind: .internal)
            defer { span.end() }
            span.updateAttributes { attributes in
                attributes["attempt.number"] = attempt.number
                attributes["attempt.hedge"] = attempt.hedge
            }
            do {
                return try await InstrumentationContext.$current.withValue(span.context) {
                    try await ResilienceCallSpan.$current.withValue(nil) { try await operation(attempt) }
                }
            } catch {
                Self.end(span, failedWith: error)
                throw error
            }
        }
    }

    /// Marks a span whose work threw: cancelled (by the caller, a timeout or a winning hedge),
    /// which is no failure of its own, or failed, with the error recorded without its secrets.
    private static func end(_ span: some Span, failedWith error: any Error) {
        if Task.isCancelled {
            span.attributes["cancelled"] = true
        } else {
            ResilienceTracing.recordFailure(error, on: span)
        }
    }
}
