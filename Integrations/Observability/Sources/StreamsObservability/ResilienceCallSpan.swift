import Tracing

/// The span of the traced call running on this task: set by
/// `ResiliencePipeline.execute(tracing:…)` around the pipeline's stages, read by the
/// ``ResilienceTracing`` observer, which the stages call on this task or its child tasks.
///
/// swift-distributed-tracing has no look-up of the current span (`InstrumentationContext`
/// carries its identifiers, and most tracers cannot find a span from them), so this package keeps
/// the span itself. Inside the operation it is nil again: a pipeline the operation calls does not
/// add its events to this call's span.
enum ResilienceCallSpan {
    @TaskLocal static var current: (any Span)?
}
