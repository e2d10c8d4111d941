import Streams

/// A strategy that a ``ResiliencePolicy`` places around each attempt of its retry, between the
/// retry and the circuit breaker: the place of hedging in the standard order.
///
/// `attempt` is one attempt as the policy builds it: the upstream under the circuit breaker and
/// the attempt timeout, each subscription a new call. The stage returns the publisher the retry
/// subscribes to instead; it may subscribe to `attempt` several times (each subscription goes
/// through the breaker and has its own timeout). `pipeline` holds the shared objects of the
/// dependency (its breaker, its budget) for stages that draw from them.
///
/// A stage has a publisher form only: `ResiliencePipeline.execute` (the `async` face) runs
/// ``Hedging``, and stops with a precondition failure that names the stage for any other, rather
/// than skipping it.
///
/// ```swift
/// struct Logged: ResilienceStage {
///     func apply<Output, Failure: Error, S: Scheduler>(
///         to attempt: AnyPublisher<Output, ResilienceError<Failure>>, pipeline: ResiliencePipeline, scheduler: S
///     ) -> AnyPublisher<Output, ResilienceError<Failure>> where S.SchedulerTimeType: TimelineInstant {
///         attempt.handleEvents(receiveSubscription: { _ in print("attempt") }).eraseToAnyPublisher()
///     }
/// }
/// var policy = ResiliencePolicy.standardHTTP
/// policy.hedging = Logged()
/// ```
public protocol ResilienceStage: Sendable {
    /// The publisher the retry subscribes to for each attempt, built on `attempt`.
    func apply<Output, Failure: Error, S: Scheduler>(
        to attempt: AnyPublisher<Output, ResilienceError<Failure>>, pipeline: ResiliencePipeline, scheduler: S
    ) -> AnyPublisher<Output, ResilienceError<Failure>> where S.SchedulerTimeType: TimelineInstant
}
