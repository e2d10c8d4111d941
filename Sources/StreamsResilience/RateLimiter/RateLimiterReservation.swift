import Streams

/// The permits one call took, or reserved, from a ``RateLimiter``: the gate its subscription
/// waits on, which gives them back when the call is cancelled before its wait ended.
@usableFromInline
struct RateLimiterReservation: SubscriptionGate {
    @usableFromInline
    let limiter: RateLimiter
    /// How many permits the call took.
    @usableFromInline
    let permits: Int
    /// The instant the permits were taken for, on the pipelines' time line.
    @usableFromInline
    let reservedAt: Duration

    @inlinable
    init(limiter: RateLimiter, permits: Int, reservedAt: Duration) {
        self.limiter = limiter
        self.permits = permits
        self.reservedAt = reservedAt
    }

    /// A call ended: its permits are spent for good.
    @usableFromInline
    func release() {}

    /// A call was cancelled while waiting for its permits: they come back.
    @usableFromInline
    func abandon(_ waiter: ObjectIdentifier) {
        limiter.refund(permits, reservedAt: reservedAt)
    }
}
