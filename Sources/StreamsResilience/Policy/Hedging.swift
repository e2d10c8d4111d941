import Streams

/// The hedging stage of a ``ResiliencePolicy``: each attempt of the retry is raced with up to
/// `maxAttempts - 1` more, started `delay` apart or at once after a non-fatal failure, drawing
/// from the pipeline's retry budget and held back while its circuit is not closed.
///
/// ```swift
/// var policy = ResiliencePolicy.standardHTTP
/// policy.hedging = Hedging(maxAttempts: 2, delay: .milliseconds(500))
/// ```
///
/// It applies `Publisher.hedge(maxAttempts:delay:when:budget:breaker:isSafeToRepeat:scheduler:events:)` between
/// the retry and the circuit breaker, so that each hedged attempt goes through the breaker and
/// has its own attempt timeout. The defaults are Polly v8's: one extra attempt after 2 seconds.
public struct Hedging: ResilienceStage {
    /// Attempts raced in all, the first included; at least 1.
    public var maxAttempts: Int
    /// The wait before each further attempt while none has answered.
    public var delay: Duration
    /// The categories of the failures that start the next attempt at once (non-fatal ones):
    /// the hedge's `when`, applied to the ``ResilienceError``. Any other failure ends the call.
    /// Default `[.retryable]`.
    public var nonFatal: Set<ErrorCategory>

    /// Races up to `maxAttempts` attempts, `delay` apart, starting the next at once after a
    /// failure whose category is in `nonFatal`.
    ///
    /// ```swift
    /// let hedging = Hedging(maxAttempts: 3, delay: .milliseconds(200))
    /// let patient = Hedging(nonFatal: [])   // a failure ends the race; only slowness hedges
    /// ```
    public init(maxAttempts: Int = 2, delay: Duration = .seconds(2), nonFatal: Set<ErrorCategory> = [.retryable]) {
        precondition(maxAttempts >= 1, "Hedging needs maxAttempts of at least 1, not \(maxAttempts)")
        precondition(delay >= .zero, "Hedging needs a delay of zero or more, not \(delay)")
        self.maxAttempts = maxAttempts
        self.delay = delay
        self.nonFatal = nonFatal
    }

    /// Hedges `attempt` with the pipeline's budget, breaker and events.
    ///
    /// ```swift
    /// let hedged = Hedging().apply(to: attempt, pipeline: pipeline, scheduler: scheduler)
    /// ```
    public func apply<Output, Failure: Error, S: Scheduler>(
        to attempt: AnyPublisher<Output, ResilienceError<Failure>>, pipeline: ResiliencePipeline, scheduler: S
    ) -> AnyPublisher<Output, ResilienceError<Failure>> where S.SchedulerTimeType: TimelineInstant {
        hedge(attempt, pipeline: pipeline, scheduler: scheduler, safety: nil).eraseToAnyPublisher()
    }

    /// The hedge of `attempt`, reading `safety` (the call's, in a `resilient` pipeline) before
    /// each extra attempt.
    func hedge<Output, Failure: Error, S: Scheduler>(
        _ attempt: AnyPublisher<Output, ResilienceError<Failure>>, pipeline: ResiliencePipeline, scheduler: S,
        safety: RepeatSafety?
    ) -> Publishers.Hedge<AnyPublisher<Output, ResilienceError<Failure>>, S> {
        let nonFatal = nonFatal
        var hedged = attempt.hedge(
            maxAttempts: maxAttempts, delay: delay, when: { nonFatal.contains($0.resolveCategory()) },
            budget: pipeline.retryBudget, breaker: pipeline.circuitBreaker, scheduler: scheduler, events: pipeline.events)
        hedged.safety = safety
        return hedged
    }
}
