/// How much of a pipeline's policy `execute` must set up before the first attempt, decided once
/// when the pipeline is made.
@usableFromInline
enum AsyncShortcut: Sendable {
    /// Some stage other than the retry is set (a limiter, a timeout, hedging, server pushback,
    /// a circuit breaker), or an observer wants each attempt timed: every call runs the stages.
    case everyStage
    /// No stage at all: a call is a cancellation check and one attempt, whose error is thrown
    /// unchanged.
    case singleAttempt
    /// Only the retry, and no observer: a call is a cancellation check, the jitter's generator
    /// and the first attempt; the retry is set up only if that attempt fails.
    case firstAttemptOfRetry

    /// The shortcut for `policy`, with `events` observing it.
    init(policy: ResiliencePolicy, events: ResilienceEvents) {
        let stagesBesideRetry =
            policy.concurrencyLimit != nil || policy.rateLimit != nil || policy.totalTimeout != nil
            || policy.hedging != nil || policy.pushback != nil || policy.circuitBreaker != nil
            || policy.attemptTimeout != nil
        // A retry that judges values checks the first attempt's value: the stages do it.
        if stagesBesideRetry || events.isObserved || policy.retryWhen != nil {
            self = .everyStage
        } else {
            self = policy.retry == nil ? .singleAttempt : .firstAttemptOfRetry
        }
    }
}
