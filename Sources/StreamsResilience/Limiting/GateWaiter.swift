import Streams

/// A call waiting in a ``ConcurrencyLimiter``'s queue, told when a permit is handed to it.
@usableFromInline
protocol GateWaiter: AnyObject, Sendable {
    /// A permit is this call's now (called outside the limiter's lock, on any thread).
    func gateOpened()
}
