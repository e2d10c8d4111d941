/// What a ``ResubscribingSubscription`` asks after an attempt fails: give up, subscribe again
/// now, or wait first (on a scheduler, or for a trigger).
///
/// `retry(_:)`, the selective `retry(_:when:backoff:scheduler:)` and `retry(on:)` share one
/// subscription and differ only in their policy. The methods run outside the lock and may call
/// user code; `decide` is never called concurrently with itself (one attempt runs at a time).
/// Before each call out after the first, a policy asks the target
/// (``ResubscribeWaitTarget/mayProceed(afterFailureOf:)``) whether the stream still wants it, so
/// that after a cancel nothing new begins.
@usableFromInline
package protocol ResubscribePolicy {
    associatedtype Failure: Error

    /// The subscription's description: the operator's name.
    static var name: String { get }

    /// The budget that each attempt's first value or `.finished` refills, if any.
    var budget: RetryBudget? { get }

    /// The upstream is about to be subscribed for the next attempt (attempts run one at a time).
    /// Returns true when it called out (an observer), so that the subscription checks for a
    /// cancel before subscribing.
    func attemptStarted() -> Bool

    /// The running attempt delivered its first value, or finished without one: refills the
    /// budget (and, for a transient retry, starts the count again).
    func attemptSucceeded()

    /// The running attempt completed: finished (`failure` nil) or failed.
    func attemptEnded(failure: Failure?)

    /// The stream gives up with `error`, the failure of attempt `attempt`, for `reason`; called
    /// outside the lock just before `error` is delivered.
    func gaveUp(reason: RetryGiveUpReason, error: Failure, attempt: Int)

    /// Judges `error`, which ended attempt number `attempt` (1 for the first attempt), checking
    /// with `target` before each call out after the first.
    func decide<Target: ResubscribeWaitTarget>(after error: Failure, attempt: Int, checking target: Target)
        -> ResubscribeDecision
    where Target.Failure == Failure

    /// `decision` was not carried out, because the stream was cancelled while it was being made:
    /// gives back what making it took (a retry budget's token).
    func dropped(_ decision: ResubscribeDecision)

    /// Starts the wait that `decide` asked for with `.wait(delay)`, reporting to `target`: first
    /// ``ResubscribeWaitTarget/waitStarted(_:attempt:)`` with what cancels the wait, as soon as
    /// that is known, then ``ResubscribeWaitTarget/waitEnded(attempt:)`` (subscribe again) or
    /// ``ResubscribeWaitTarget/waitAbandoned(attempt:error:)`` (give up); the first of these
    /// counts. The wait holds `target` strongly: a pending retry keeps its pipeline alive until
    /// it runs, as in Combine.
    func startWait<Target: ResubscribeWaitTarget>(after error: Failure, attempt: Int, delay: Duration, waking target: Target)
    where Target.Failure == Failure
}

extension ResubscribePolicy {
    @inlinable
    package var budget: RetryBudget? { nil }

    @inlinable
    package func attemptStarted() -> Bool { false }

    @inlinable
    package func attemptSucceeded() { budget?.recordSuccess() }

    @inlinable
    package func attemptEnded(failure: Failure?) {}

    @inlinable
    package func gaveUp(reason: RetryGiveUpReason, error: Failure, attempt: Int) {}

    @inlinable
    package func dropped(_ decision: ResubscribeDecision) {}
}
