/// What a ``ResubscribeWait`` reports to: the ``ResubscribingSubscription`` that waits.
@usableFromInline
protocol ResubscribeWaitTarget: AnyObject {
    /// `wait` cancels the wait after `attempt`. Returns false, having cancelled `wait`, when
    /// that wait is no longer wanted.
    func waitStarted(_ wait: any Cancellable, attempt: Int) -> Bool
    /// The wait after `attempt` is over: subscribe again.
    func waitEnded(attempt: Int)
    /// The wait after `attempt` ended without its signal: deliver that attempt's failure.
    func waitAbandoned(attempt: Int)
}
