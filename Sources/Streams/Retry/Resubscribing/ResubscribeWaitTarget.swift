/// What a ``ResubscribePolicy``'s wait reports to: the ``ResubscribingSubscription`` that waits.
/// Every call names the attempt whose failure the wait follows, so that a late report of an
/// earlier wait is ignored.
@usableFromInline
protocol ResubscribeWaitTarget<Failure>: AnyObject {
    associatedtype Failure: Error

    /// `wait` cancels the wait after `attempt`. Returns false, having cancelled `wait`, when
    /// that wait is no longer wanted.
    func waitStarted(_ wait: any Cancellable, attempt: Int) -> Bool
    /// The wait after `attempt` is over: subscribe again.
    func waitEnded(attempt: Int)
    /// The wait after `attempt` ended without its signal: deliver `error`.
    func waitAbandoned(attempt: Int, error: Failure)
}
