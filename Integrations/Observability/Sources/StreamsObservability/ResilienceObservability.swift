import Logging
import Metrics
import StreamsResilience

/// Metrics, logs and traces of a pipeline's resilience events, wired in one call.
///
/// ```swift
/// let registry = ResilienceRegistry(policy: .standardHTTP) { host in
///     ResilienceObservability.events(for: host)
/// }
/// let user = try await registry.pipeline(for: "users.internal").execute(tracing: "GET /users/{id}") { _ in
///     try await client.user(id)
/// }
/// ```
public enum ResilienceObservability {
    /// The observer of the pipeline named `pipeline` (a dependency, a host: the registry's key):
    /// each event is recorded by ``ResilienceMetrics`` with `metrics`, logged by
    /// ``ResilienceLogging`` to `logger`, and added by ``ResilienceTracing`` to the span of the
    /// traced call it happens in (`ResiliencePipeline.execute(tracing:…)`, which also takes the
    /// tracer). Pass nil, or `tracing: false`, to leave one out.
    ///
    /// ```swift
    /// let payments = ResiliencePipeline(
    ///     .standardHTTP, events: ResilienceObservability.events(for: "payments", logger: logger, metrics: prometheus))
    /// ```
    public static func events(
        for pipeline: String, logger: Logger? = Logger(label: "streams.resilience"),
        metrics: (any MetricsFactory)? = MetricsSystem.factory, tracing: Bool = true
    ) -> ResilienceEvents {
        let metrics = metrics.map { ResilienceMetrics(pipeline: pipeline, factory: $0) }
        let logging = logger.map { ResilienceLogging(pipeline: pipeline, logger: $0) }
        let tracing = tracing ? ResilienceTracing(pipeline: pipeline) : nil
        guard metrics != nil || logging != nil || tracing != nil else { return .none }
        return ResilienceEvents { event, context in
            metrics?.record(event)
            logging?.log(event, context: context)
            tracing?.record(event)
        }
    }
}
