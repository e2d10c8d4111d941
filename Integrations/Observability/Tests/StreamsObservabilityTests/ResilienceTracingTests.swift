import InMemoryTracing
import Streams
import StreamsObservability
import StreamsResilience
import Testing
import Tracing

@Suite("ResilienceTracing")
struct ResilienceTracingTests {
    let tracer = InMemoryTracer()

    func pipeline(_ policy: ResiliencePolicy, name: String = "users") -> ResiliencePipeline {
        ResiliencePipeline(policy, events: ResilienceTracing(pipeline: name).events)
    }

    func finished(_ name: String) -> [FinishedInMemorySpan] {
        tracer.finishedSpans.filter { $0.operationName == name }
    }

    @Test func aCallIsASpanWithAChildSpanPerAttempt() async throws {
        let flaky = FlakyOperation(failing: 2)
        let value = try await pipeline(.retrying(2, backoff: .immediate)).execute(tracing: "GET /users", tracer: tracer) { _ in
            try flaky()
        }

        #expect(value == 3)
        let call = try #require(finished("GET /users").first)
        let attempts = finished("GET /users attempt")
        #expect(attempts.count == 3)
        #expect(attempts.allSatisfy { $0.parentSpanID == call.spanID && $0.traceID == call.traceID })
        #expect(attempts.map { $0.attributes.get("attempt.number") } == [.int64(1), .int64(2), .int64(3)])
        #expect(attempts.map { $0.attributes.get("attempt.hedge") } == [.int64(0), .int64(0), .int64(0)])
        #expect(attempts.map { $0.status?.code } == [.error, .error, nil])
        #expect(attempts[0].attributes.get("error.type") == .string(String(reflecting: Outage.self)))

        #expect(call.status == nil)
        #expect(call.attributes.get("pipeline.name") == .string("users"))
        #expect(call.events.map(\.name) == ["retry_scheduled", "retry_scheduled"])
        #expect(call.events.map { $0.attributes.get("attempt.number") } == [.int64(1), .int64(2)])
        #expect(call.events.allSatisfy { $0.attributes.get("retry.delay") == .double(0) })
        #expect(call.events[0].attributes.get("error.message") == .string("outage"))
    }

    @Test func theOperationsOwnSpansNestUnderTheirAttempt() async throws {
        let tracer = tracer
        try await pipeline(ResiliencePolicy()).execute(tracing: "GET /users", tracer: tracer) { _ in
            tracer.withSpan("SELECT users") { _ in }
        }

        let attempt = try #require(finished("GET /users attempt").first)
        let query = try #require(finished("SELECT users").first)
        #expect(query.parentSpanID == attempt.spanID)
    }

    @Test func aFailedCallRecordsItsErrorWithoutSecrets() async throws {
        await #expect(throws: LeakyError.self) {
            try await pipeline(.retrying(1, backoff: .immediate)).execute(tracing: "GET /users", tracer: tracer) { _ in
                throw LeakyError()
            }
        }

        let call = try #require(finished("GET /users").first)
        let leaky = String(reflecting: LeakyError.self)
        #expect(call.status?.code == .error)
        #expect(call.attributes.get("error.type") == .string(leaky))
        #expect(call.errors.map { $0.attributes.get("exception.type") } == [.string(leaky)])
        #expect(call.events.map(\.name) == ["retry_scheduled", "retry_gave_up"])
        #expect(call.events[1].attributes.get("retry.reason") == .string("exhausted"))
        #expect(call.events[1].attributes.get("attempt.count") == .int64(2))

        // Everything a tracer was told: names, attributes, events, errors and statuses.
        let told = tracer.finishedSpans.map { span in
            "\(span.operationName) \(span.attributes) \(span.events) \(span.status?.message ?? "") "
                + span.errors.map { "\($0.error) \($0.error.localizedDescription) \($0.attributes)" }.joined()
        }
        #expect(told.count == 3)
        #expect(!told.contains { $0.contains("SECRET") })
        #expect("\(call.errors[0].error)" == LeakyError().redactedDescription)
    }

    @Test func aTimedOutAttemptIsAnEventOfTheCallAndACancelledSpan() async throws {
        let timed = pipeline(ResiliencePolicy(attemptTimeout: .milliseconds(1)))
        await #expect(throws: AttemptTimeoutError.self) {
            try await timed.execute(tracing: "GET /users", tracer: tracer) { _ in
                try await Task.sleep(for: .seconds(60))  // cancelled by the timeout
            }
        }

        let call = try #require(finished("GET /users").first)
        #expect(call.events.map(\.name) == ["attempt_timed_out"])
        #expect(call.events[0].attributes.get("timeout") == .double(0.001))
        #expect(call.attributes.get("error.type") == .string(String(reflecting: AttemptTimeoutError.self)))
        let attempt = try #require(finished("GET /users attempt").first)
        #expect(attempt.attributes.get("cancelled") == .bool(true))
        #expect(attempt.status == nil)
    }

    @Test func aHedgeIsAnEventAndASpanOfItsOwn() async throws {
        let hedged = pipeline(ResiliencePolicy(hedging: Hedging(maxAttempts: 2, delay: .zero)))
        let value = try await hedged.execute(tracing: "GET /users", tracer: tracer) { attempt in
            if attempt.hedge == 0 { try await Task.sleep(for: .seconds(60)) }  // the hedge wins
            return attempt.hedge
        }

        #expect(value == 1)
        let call = try #require(finished("GET /users").first)
        #expect(call.events.map(\.name) == ["hedge_started"])
        #expect(call.events[0].attributes.get("attempt.number") == .int64(2))
        let attempts = finished("GET /users attempt")
        let first = try #require(attempts.first { $0.attributes.get("attempt.hedge") == .int64(0) })
        let hedge = try #require(attempts.first { $0.attributes.get("attempt.hedge") == .int64(1) })
        #expect(first.attributes.get("cancelled") == .bool(true))
        #expect(hedge.attributes.get("cancelled") == nil)
        #expect(hedge.parentSpanID == call.spanID)
    }

    @Test func aPipelineCalledFromTheOperationAddsNothingToTheCall() async throws {
        let inner = pipeline(.retrying(1, backoff: .immediate), name: "cache")
        let flaky = FlakyOperation(failing: 1)
        try await pipeline(ResiliencePolicy()).execute(tracing: "GET /users", tracer: tracer) { _ in
            _ = try await inner.execute { _ in try flaky() }
        }

        let call = try #require(finished("GET /users").first)
        #expect(call.events.isEmpty)
        #expect(call.attributes.get("pipeline.name") == nil)
    }

    @Test func aSpanOfTheCallersOwnGetsNoEvents() async throws {
        let flaky = FlakyOperation(failing: 1)
        let untraced = pipeline(.retrying(1, backoff: .immediate))
        try await tracer.withSpan("handler") { _ in
            _ = try await untraced.execute { _ in try flaky() }
        }

        let handler = try #require(finished("handler").first)
        #expect(handler.events.isEmpty)
        #expect(tracer.finishedSpans.count == 1)
    }
}
