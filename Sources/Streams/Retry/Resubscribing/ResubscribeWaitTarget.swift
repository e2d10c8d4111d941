/// What a ``ResubscribePolicy`` reports to: the ``ResubscribingSubscription`` that decides and
/// waits. Every call names the attempt whose failure the decision or wait follows, so that a late
/// report of an earlier wait is ignored.
@usableFromInline
package protocol ResubscribeWaitTarget<Failure>: AnyObject {
    associatedtype Failure: Error

    /// Asked by the policy just before each further call out (user code, the scheduler, a
    /// trigger) while it decides about, or starts the wait after, the failure of `attempt`:
    /// false once the stream is cancelled, and then the policy stops (a decision gives up).
    func mayProceed(afterFailureOf attempt: Int) -> Bool

    /// `wait` cancels the wait after `attempt`. Returns false, having cancelled `wait`, when
    /// that wait is no longer wanted.
    func waitStarted(_ wait: any Cancellable, attempt: Int) -> Bool
    /// The wait after `attempt` is over: subscribe again.
    func waitEnded(attempt: Int)
    /// The wait after `attempt` ended without its signal: deliver `error`.
    func waitAbandoned(attempt: Int, error: Failure)
}
