/// A wait between two attempts: a timer on a scheduler or a trigger publisher.
///
/// `start` tells `target` how the wait goes, stamping each call with `attempt` so that the
/// target can ignore a wait that no longer matters: ``ResubscribeWaitTarget/waitStarted(_:attempt:)``
/// with what cancels it (as soon as it is known), then
/// ``ResubscribeWaitTarget/waitEnded(attempt:)`` (subscribe again) or
/// ``ResubscribeWaitTarget/waitAbandoned(attempt:)`` (give up with the failure); the first of
/// these counts and later calls are ignored. The wait holds
/// `target` strongly: a pending retry keeps its pipeline alive until it runs, as in Combine.
@usableFromInline
protocol ResubscribeWait {
    /// Starts the wait. Runs outside the lock; may call `target` before it returns.
    func start<Target: ResubscribeWaitTarget>(waking target: Target, attempt: Int)
}

/// A policy that never waits (`retry(_:)`).
extension Never: ResubscribeWait {
    @inlinable
    func start<Target: ResubscribeWaitTarget>(waking target: Target, attempt: Int) {}
}
